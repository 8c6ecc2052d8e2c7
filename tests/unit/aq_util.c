/* aq_util.c - admin queue test driver (see aq_util.h). */
#include <string.h>
#include "aq_util.h"
#include "emu/core/e810_regs.h"
#include "emu/core/le.h"

FakeHost *h;
IrdmaDev *d;

static unsigned atq_tail, arq_next;

void aqt_setup(void)
{
    h = fake_host_new(AQT_MEM_SIZE);
    d = fake_dev_new(h);
    aqt_init(h, d);
}

void aqt_teardown(void)
{
    irdma_dev_free(d);
    fake_host_free(h);
}

void aqt_init(FakeHost *h, IrdmaDev *d)
{
    irdma_dev_mmio_write(d, PF_FW_ATQH, 0);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 0);
    irdma_dev_mmio_write(d, PF_FW_ATQLEN, AQT_RING_LEN | PF_FW_xQLEN_ENABLE_M);
    irdma_dev_mmio_write(d, PF_FW_ATQBAL, AQT_ATQ_RING);
    irdma_dev_mmio_write(d, PF_FW_ATQBAH, 0);
    for (unsigned i = 0; i < AQT_RING_LEN; i++) {
        uint8_t *desc = h->mem + AQT_ARQ_RING + i * AQ_DESC_SIZE;
        uint64_t buf = AQT_ARQ_BUF + (uint64_t)i * AQ_MAX_BUF;

        memset(desc, 0, AQ_DESC_SIZE);
        st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_LB);
        st16(desc + AQ_DESC_DATALEN, AQ_MAX_BUF);
        st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H, buf >> 32);
        st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L, buf);
    }
    irdma_dev_mmio_write(d, PF_FW_ARQH, 0);
    irdma_dev_mmio_write(d, PF_FW_ARQT, 0);
    irdma_dev_mmio_write(d, PF_FW_ARQLEN, AQT_RING_LEN | PF_FW_xQLEN_ENABLE_M);
    irdma_dev_mmio_write(d, PF_FW_ARQBAL, AQT_ARQ_RING);
    irdma_dev_mmio_write(d, PF_FW_ARQBAH, 0);
    irdma_dev_mmio_write(d, PF_FW_ARQT, AQT_RING_LEN - 1);
    atq_tail = 0;
    arq_next = 0;
}

uint16_t aqt_send(FakeHost *h, IrdmaDev *d, uint16_t opcode, uint16_t flags,
                  const uint8_t params[AQ_PARAMS_SIZE], void *buf, uint16_t len, AqtResp *resp)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING + atq_tail * AQ_DESC_SIZE;
    AqtResp local;

    resp = resp ? resp : &local;
    memset(desc, 0, AQ_DESC_SIZE);
    flags |= AQ_FLAG_SI;
    if (len) {
        flags |= AQ_FLAG_BUF | (len > AQ_LARGE_BUF ? AQ_FLAG_LB : 0);
        memcpy(h->mem + AQT_ATQ_BUF, buf, len);
    }
    st16(desc + AQ_DESC_FLAGS, flags);
    st16(desc + AQ_DESC_OPCODE, opcode);
    st16(desc + AQ_DESC_DATALEN, len);
    if (params) {
        memcpy(desc + AQ_DESC_PARAMS, params, AQ_PARAMS_SIZE);
    }
    if (len) {
        st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H, 0);
        st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L, AQT_ATQ_BUF);
    }
    atq_tail = (atq_tail + 1) % AQT_RING_LEN;
    irdma_dev_mmio_write(d, PF_FW_ATQT, atq_tail);
    fake_host_advance(h, d, h->now_ns + 1000000);

    resp->flags = ld16(desc + AQ_DESC_FLAGS);
    resp->opcode = ld16(desc + AQ_DESC_OPCODE);
    resp->datalen = ld16(desc + AQ_DESC_DATALEN);
    resp->retval = ld16(desc + AQ_DESC_RETVAL);
    memcpy(resp->params, desc + AQ_DESC_PARAMS, AQ_PARAMS_SIZE);
    if (len && buf) {
        memcpy(buf, h->mem + AQT_ATQ_BUF, len);
    }
    return resp->retval;
}

bool aqt_next_event(FakeHost *h, IrdmaDev *d, AqtResp *ev, void *buf, uint16_t cap)
{
    uint8_t *desc = h->mem + AQT_ARQ_RING + arq_next * AQ_DESC_SIZE;
    uint64_t addr;

    if (irdma_dev_mmio_read(d, PF_FW_ARQH) == arq_next) {
        return false;
    }
    ev->flags = ld16(desc + AQ_DESC_FLAGS);
    ev->opcode = ld16(desc + AQ_DESC_OPCODE);
    ev->datalen = ld16(desc + AQ_DESC_DATALEN);
    ev->retval = ld16(desc + AQ_DESC_RETVAL);
    memcpy(ev->params, desc + AQ_DESC_PARAMS, AQ_PARAMS_SIZE);
    addr = ((uint64_t)ld32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H) << 32) |
           ld32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L);
    if (buf) {
        memcpy(buf, h->mem + addr, MIN(cap, ev->datalen));
    }
    /* Re-post the slot as the driver does, and give it back through the tail. */
    st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_LB);
    st16(desc + AQ_DESC_DATALEN, AQ_MAX_BUF);
    irdma_dev_mmio_write(d, PF_FW_ARQT, arq_next);
    arq_next = (arq_next + 1) % AQT_RING_LEN;
    return true;
}
