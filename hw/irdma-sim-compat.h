/*
 * The QEMU API differences between the releases the device builds into (7.2 to 11.1), in one
 * place: irdma-sim.c includes this after qemu/osdep.h (which gives QEMU_VERSION_MAJOR/MINOR)
 * and writes every changed interface through the names below.
 *   - headers that moved (sysemu/ -> system/, hw/qdev-properties.h -> hw/core/, PCIDevice and
 *     pci_dma_* in hw/pci/pci_device.h, icount_enabled() in exec/icount.h,
 *     qemu_ram_block_from_host() in system/ramblock.h, current_machine in hw/core/boards.h):
 *     included where they are;
 *   - property arrays: terminated by DEFINE_PROP_END_OF_LIST() and non-const until QEMU 9.2,
 *     const and sized by the array after it (IRDMA_SIM_PROPERTY, IRDMA_SIM_PROPS_END);
 *   - class_init's data argument: const from QEMU 10.1 (IRDMA_SIM_CLASS_DATA);
 *   - the device reset hook: dc->reset until QEMU 9.1, device_class_set_legacy_reset() after
 *     (irdma_sim_set_reset).
 */
#ifndef IRDMA_SIM_COMPAT_H
#define IRDMA_SIM_COMPAT_H

#define IRDMA_SIM_QEMU_AT_LEAST(major, minor) \
    (QEMU_VERSION_MAJOR > (major) || \
     (QEMU_VERSION_MAJOR == (major) && QEMU_VERSION_MINOR >= (minor)))

#if __has_include("system/cpu-timers.h")
#include "system/cpu-timers.h"
#else
#include "sysemu/cpu-timers.h"
#endif
#if __has_include("exec/icount.h")
#include "exec/icount.h"
#endif
#if __has_include("system/ramblock.h")
#include "system/ramblock.h"
#endif
#if __has_include("hw/pci/pci_device.h")
#include "hw/pci/pci_device.h"
#endif
#if __has_include("hw/core/boards.h")
#include "hw/core/boards.h"
#else
#include "hw/boards.h"
#endif
#if __has_include("hw/core/qdev-properties.h")
#include "hw/core/qdev-properties.h"
#else
#include "hw/qdev-properties.h"
#endif

#ifdef DEFINE_PROP_END_OF_LIST
#define IRDMA_SIM_PROPERTY Property
#define IRDMA_SIM_PROPS_END DEFINE_PROP_END_OF_LIST(),
#else
#define IRDMA_SIM_PROPERTY const Property
#define IRDMA_SIM_PROPS_END
#endif

#if IRDMA_SIM_QEMU_AT_LEAST(10, 1)
#define IRDMA_SIM_CLASS_DATA const void
#else
#define IRDMA_SIM_CLASS_DATA void
#endif

static inline void irdma_sim_set_reset(DeviceClass *dc, void (*reset)(DeviceState *dev))
{
#if IRDMA_SIM_QEMU_AT_LEAST(9, 1)
    device_class_set_legacy_reset(dc, reset);
#else
    dc->reset = reset;
#endif
}

#endif
