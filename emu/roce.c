/* roce.c - RDMA engine receive hand-off (see roce.h). */
#include "roce.h"
#include "trace.h"

void roce_rx_frame(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    (void)frame;
    d->roce_rx_dropped++;
    emu_trace(&d->host, "roce_rx_dropped", "len %zu: no RoCEv2 transport yet", len);
}
