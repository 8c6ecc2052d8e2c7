/* device.c - creation, reset and MMIO entry points of the device core (see device.h). */
#include "device.h"
#include "ids.h"
#include "pf.h"
#include "ctlq.h"
#include "trace.h"

G_DEFINE_QUARK(irdma-dev-error-quark, irdma_dev_error)

static bool config_valid(const IrdmaDevConfig *cfg, GError **errp)
{
    if (cfg->msix_vectors < IRDMA_MSIX_VECTORS_MIN || cfg->msix_vectors > IRDMA_MSIX_VECTORS_MAX) {
        g_set_error(errp, IRDMA_DEV_ERROR, 0, "msix-vectors=%u is out of range [%u, %u]",
                    cfg->msix_vectors, IRDMA_MSIX_VECTORS_MIN, IRDMA_MSIX_VECTORS_MAX);
        return false;
    }
    if (cfg->mac[0] & 1) {
        g_set_error(errp, IRDMA_DEV_ERROR, 0,
                    "mac=%02x:%02x:%02x:%02x:%02x:%02x is a multicast address",
                    cfg->mac[0], cfg->mac[1], cfg->mac[2], cfg->mac[3], cfg->mac[4], cfg->mac[5]);
        return false;
    }
    return true;
}

IrdmaDev *irdma_dev_new(const IrdmaHostOps *ops, void *opaque, const IrdmaDevConfig *cfg,
                        GError **errp)
{
    IrdmaDev *d;

    if (!config_valid(cfg, errp)) {
        return NULL;
    }
    d = g_new0(IrdmaDev, 1);
    d->host = (IrdmaHost) { .ops = ops, .opaque = opaque };
    d->cfg = *cfg;
    d->regs = emu_regfile_new(&d->host);
    emu_event_queue_init(&d->events, &d->host);
    pf_block_init(d);
    ctlq_block_init(d);
    return d;
}

void irdma_dev_free(IrdmaDev *d)
{
    if (!d) {
        return;
    }
    emu_event_queue_destroy(&d->events);
    emu_regfile_free(d->regs);
    g_free(d);
}

void irdma_dev_reset(IrdmaDev *d)
{
    emu_trace(&d->host, "dev_reset", "function reset");
    emu_event_cancel_all(&d->events);
    emu_regfile_reset(d->regs);
}

void irdma_dev_pf_reset(IrdmaDev *d)
{
    d->pf_resets++;
    ctlq_pf_reset(d);
}

uint32_t irdma_dev_mmio_read(IrdmaDev *d, uint32_t off)
{
    return emu_regfile_read(d->regs, off);
}

void irdma_dev_mmio_write(IrdmaDev *d, uint32_t off, uint32_t val)
{
    emu_regfile_write(d->regs, off, val);
}

void irdma_dev_timer_expired(IrdmaDev *d)
{
    emu_event_queue_run(&d->events);
}
