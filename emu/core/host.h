/*
 * host.h - the seam between the device core and whatever hosts it.
 *
 * The emu/ core never calls QEMU (or anything else) directly: every effect outside the device
 * goes through these operations. hw/irdma-sim.c implements them on QEMU (pci_dma_*, msix_notify,
 * QEMUTimer, NetClientState, trace-events); tests/unit/fake_host.c implements them on a memory
 * array and recorded interrupts.
 */
#ifndef IRDMA_EMU_HOST_H
#define IRDMA_EMU_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/trace_events.h"

typedef struct IrdmaHostOps {
    /* DMA of guest physical memory; 0 on success, -1 if the range is not backed. */
    int (*dma_read)(void *opaque, uint64_t gpa, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t gpa, const void *buf, size_t len);
    /*
     * Optional (NULL: the host has none): guest memory at @gpa to read in place, up to *@len
     * bytes; *@len becomes what was mapped, which ends early where guest memory stops being
     * one piece of host memory. NULL if nothing at @gpa maps. A mapping stays valid until
     * dma_unmap, across calls into the device. Internally looped RDMA payloads use it to go
     * from guest memory to guest memory in one copy (roce.h, RoceTrain).
     */
    const void *(*dma_map)(void *opaque, uint64_t gpa, size_t *len);
    void (*dma_unmap)(void *opaque, const void *p, size_t len);
    /* Raise MSI-X vector @vector (the host applies masking and the PBA). */
    void (*msix_notify)(void *opaque, unsigned vector);
    /* Virtual clock in ns, and the single timer the event queue runs on. */
    uint64_t (*clock_ns)(void *opaque);
    void (*timer_arm)(void *opaque, uint64_t deadline_ns);
    void (*timer_cancel)(void *opaque);
    /* Put one Ethernet frame on the wire. */
    void (*send_frame)(void *opaque, const void *frame, size_t len);
    /*
     * Trace sink: @event is an entry of the catalogue (core/trace_events.h: its name and kind
     * are emu_trace_events[@event], core/trace.h), @detail a formatted message. trace_enabled
     * says whether trace would record @event (QEMU: its trace event is on, or its kind's log).
     */
    bool (*trace_enabled)(void *opaque, EmuTraceId event);
    void (*trace)(void *opaque, EmuTraceId event, const char *detail);
} IrdmaHostOps;

typedef struct IrdmaHost {
    const IrdmaHostOps *ops;
    void *opaque;
} IrdmaHost;

#endif
