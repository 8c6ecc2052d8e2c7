/* fake_host.c - the unit tests' host (see fake_host.h). */
#include <string.h>
#include "fake_host.h"
#include "emu/core/ids.h"
#include "emu/core/trace.h"

static int fh_dma_read(void *opaque, uint64_t gpa, void *buf, size_t len)
{
    FakeHost *h = opaque;

    if (gpa > h->mem_size || len > h->mem_size - gpa) {
        return -1;
    }
    memcpy(buf, h->mem + gpa, len);
    return 0;
}

static int fh_dma_write(void *opaque, uint64_t gpa, const void *buf, size_t len)
{
    FakeHost *h = opaque;

    if (gpa > h->mem_size || len > h->mem_size - gpa) {
        return -1;
    }
    memcpy(h->mem + gpa, buf, len);
    return 0;
}

static const void *fh_dma_map(void *opaque, uint64_t gpa, size_t *len)
{
    FakeHost *h = opaque;

    if (h->no_dma_map || gpa >= h->mem_size) {
        return NULL;
    }
    *len = MIN(*len, h->mem_size - gpa);
    if (h->dma_map_max) {
        *len = MIN(*len, h->dma_map_max);
    }
    h->dma_maps++;
    return h->mem + gpa;
}

static void fh_dma_unmap(void *opaque, const void *p, size_t len)
{
    FakeHost *h = opaque;

    g_assert((const uint8_t *)p >= h->mem && len <= h->mem_size &&
             (size_t)((const uint8_t *)p - h->mem) <= h->mem_size - len && h->dma_maps);
    h->dma_maps--;
}

static void fh_msix_notify(void *opaque, unsigned vector)
{
    FakeHost *h = opaque;

    g_array_append_val(h->irqs, vector);
}

static uint64_t fh_clock_ns(void *opaque)
{
    FakeHost *h = opaque;

    h->now_ns += h->clock_tick_ns;
    h->clock_reads++;
    return h->now_ns;
}

static void fh_timer_arm(void *opaque, uint64_t deadline)
{
    FakeHost *h = opaque;

    h->timer_armed = true;
    h->timer_deadline = deadline;
    h->timer_arms++;
}

static void fh_timer_cancel(void *opaque)
{
    ((FakeHost *)opaque)->timer_armed = false;
}

static void fh_send_frame(void *opaque, const void *frame, size_t len)
{
    FakeHost *h = opaque;

    if (!h->drop_frames) {
        g_ptr_array_add(h->frames, g_bytes_new(frame, len));
    }
}

static bool fh_trace_enabled(void *opaque, EmuTraceId event)
{
    FakeHost *h = opaque;

    return !h->quiet && (!h->trace_one || event == h->trace_only);
}

static void fh_trace(void *opaque, EmuTraceId event, const char *detail)
{
    FakeHost *h = opaque;

    g_ptr_array_add(h->traces, g_strdup_printf("%s: %s", emu_trace_events[event].name, detail));
}

const IrdmaHostOps fake_host_ops = {
    .dma_read = fh_dma_read,
    .dma_write = fh_dma_write,
    .dma_map = fh_dma_map,
    .dma_unmap = fh_dma_unmap,
    .msix_notify = fh_msix_notify,
    .clock_ns = fh_clock_ns,
    .timer_arm = fh_timer_arm,
    .timer_cancel = fh_timer_cancel,
    .send_frame = fh_send_frame,
    .trace_enabled = fh_trace_enabled,
    .trace = fh_trace,
};

FakeHost *fake_host_new(size_t mem_size)
{
    FakeHost *h = g_new0(FakeHost, 1);

    h->mem = g_malloc0(mem_size);
    h->mem_size = mem_size;
    h->irqs = g_array_new(FALSE, FALSE, sizeof(unsigned));
    h->frames = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    h->traces = g_ptr_array_new_with_free_func(g_free);
    return h;
}

void fake_host_clear(FakeHost *h)
{
    memset(h->mem, 0, h->mem_size);
    h->now_ns = 0;
    h->clock_reads = 0;
    h->timer_armed = false;
    h->timer_deadline = 0;
    h->timer_arms = 0;
    g_array_set_size(h->irqs, 0);
    g_ptr_array_set_size(h->frames, 0);
    g_ptr_array_set_size(h->traces, 0);
}

void fake_host_free(FakeHost *h)
{
    g_free(h->mem);
    g_array_free(h->irqs, TRUE);
    g_ptr_array_free(h->frames, TRUE);
    g_ptr_array_free(h->traces, TRUE);
    g_free(h);
}

void fake_host_advance(FakeHost *h, IrdmaDev *d, uint64_t ns)
{
    h->now_ns = ns;
    if (h->timer_armed && h->timer_deadline <= ns) {
        h->timer_armed = false;
        irdma_dev_timer_expired(d);
    }
}

unsigned fake_host_trace_count(const FakeHost *h, const char *prefix)
{
    unsigned n = 0;

    for (unsigned i = 0; i < h->traces->len; i++) {
        n += g_str_has_prefix(g_ptr_array_index(h->traces, i), prefix);
    }
    return n;
}

IrdmaDev *fake_dev_new_ops(FakeHost *h, const IrdmaHostOps *ops)
{
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
    IrdmaDevConfig cfg;
    IrdmaDev *d;

    irdma_dev_config_init(&cfg);
    memcpy(cfg.mac, mac, sizeof(mac));
    d = irdma_dev_new(ops, h, &cfg, NULL);

    irdma_dev_reset(d);
    return d;
}

IrdmaDev *fake_dev_new(FakeHost *h)
{
    return fake_dev_new_ops(h, &fake_host_ops);
}
