/*
 * device.h - the irdma-sim device core: one E810 PF with its RDMA engine, independent of QEMU.
 *
 * The host creates it with its IrdmaHostOps, forwards BAR0 accesses and the event-queue timer to
 * it, and resets it on PCI reset. Each hardware block (pf.c, aq.c, ...) owns its registers and
 * state and is reached through the IrdmaDev it is part of.
 */
#ifndef IRDMA_EMU_DEVICE_H
#define IRDMA_EMU_DEVICE_H

#include <glib.h>
#include "host.h"
#include "event.h"
#include "regs.h"

typedef struct IrdmaDevConfig {
    uint8_t mac[6];
    unsigned msix_vectors;
} IrdmaDevConfig;

typedef struct IrdmaDev {
    IrdmaHost host;
    IrdmaDevConfig cfg;
    EmuRegFile *regs;
    EmuEventQueue events;
    uint64_t pf_resets;          /* PF resets performed, for tests and tracing */
} IrdmaDev;

/* Validates @cfg; on a bad value returns NULL with @errp naming it. */
IrdmaDev *irdma_dev_new(const IrdmaHostOps *ops, void *opaque, const IrdmaDevConfig *cfg,
                        GError **errp);
void irdma_dev_free(IrdmaDev *d);

/* Power-on / PCI function reset: everything back to its reset value. */
void irdma_dev_reset(IrdmaDev *d);
/* PF software reset (PFGEN_CTRL.PFSWR): PF-scoped state only. */
void irdma_dev_pf_reset(IrdmaDev *d);

uint32_t irdma_dev_mmio_read(IrdmaDev *d, uint32_t off);
void irdma_dev_mmio_write(IrdmaDev *d, uint32_t off, uint32_t val);

/* The host's timer for the event queue fired. */
void irdma_dev_timer_expired(IrdmaDev *d);

#define IRDMA_DEV_ERROR irdma_dev_error_quark()
GQuark irdma_dev_error_quark(void);

#endif
