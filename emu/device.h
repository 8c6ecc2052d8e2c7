/*
 * device.h - the irdma-sim device core: one E810 PF with its RDMA engine, independent of QEMU.
 *
 * The host creates it with its IrdmaHostOps, forwards BAR0 accesses and the event-queue timer to
 * it, and resets it on PCI reset. Each hardware block (pf.c, aq.c, ...) owns its registers and
 * state and is reached through the IrdmaDev it is part of.
 */
#ifndef IRDMA_EMU_DEVICE_H
#define IRDMA_EMU_DEVICE_H

#include "core/dev.h"
#include "core/ids.h"

/* Validates @cfg; on a bad value returns NULL with @errp naming it. */
/* The defaults: every property as the device comes. */
void irdma_dev_config_init(IrdmaDevConfig *cfg);
IrdmaDev *irdma_dev_new(const IrdmaHostOps *ops, void *opaque, const IrdmaDevConfig *cfg,
                        GError **errp);
void irdma_dev_free(IrdmaDev *d);

/* Power-on / PCI function reset: everything back to its reset value. */
void irdma_dev_reset(IrdmaDev *d);
/* PF software reset (PFGEN_CTRL.PFSWR): PF-scoped state only. */
void irdma_dev_pf_reset(IrdmaDev *d);
/* Core/global reset (GLGEN_RTRIG): the PF's state and its interrupt configuration. */
void irdma_dev_core_reset(IrdmaDev *d);

uint32_t irdma_dev_mmio_read(IrdmaDev *d, uint32_t off);
void irdma_dev_mmio_write(IrdmaDev *d, uint32_t off, uint32_t val);

/* The wire's state changed (the host netdev's link). */
void irdma_dev_set_carrier(IrdmaDev *d, bool up);

/* A frame arrived from the wire. */
void irdma_dev_receive(IrdmaDev *d, const uint8_t *frame, size_t len);

/* The host's timer for the event queue fired. */
void irdma_dev_timer_expired(IrdmaDev *d);

/* The opcode names fault plans may use (fault_plan_parse). */
extern const FaultVocab irdma_dev_fault_vocab;

/* Install the fault plan in file @path (docs/faults.md) with a fresh fault log, or with ""
 * remove the plan. A bad plan is refused (false, @errp naming the file and line) and the
 * running one stays. */
bool irdma_dev_set_faults(IrdmaDev *d, const char *path, GError **errp);
/* One line per fault fired (fault.h, fault_log). */
const char *irdma_dev_fault_log(IrdmaDev *d);

/* The device's counters, for test harnesses: what the guest's statistics registers do not
 * show. @fn gets each one's name and where it lives (valid while @d is). */
void irdma_dev_foreach_counter(IrdmaDev *d,
                               void (*fn)(void *opaque, const char *name, uint64_t *value),
                               void *opaque);

#define IRDMA_DEV_ERROR irdma_dev_error_quark()
GQuark irdma_dev_error_quark(void);

#endif
