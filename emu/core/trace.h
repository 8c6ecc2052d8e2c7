/*
 * trace.h - trace events of the device core.
 *
 * Every guest-visible decision of emu/ is traced through emu_trace() with an event of the
 * catalogue (core/trace_events.h); the host decides where the text goes (QEMU: one trace event
 * per catalogue entry, plus -d guest_errors / -d unimp for those kinds; unit tests: a recorded
 * list). Formatting only happens when the host says the event is on, so a disabled event costs
 * one indirect call.
 */
#ifndef IRDMA_EMU_TRACE_H
#define IRDMA_EMU_TRACE_H

#include <glib.h>
#include "core/host.h"
#include "core/trace_events.h"

typedef struct EmuTraceEvent {
    const char *name;          /* the catalogue's name: irdma_sim_<name> in QEMU */
    EmuTraceKind kind;
} EmuTraceEvent;

/* The catalogue as data, indexed by EmuTraceId. */
extern const EmuTraceEvent emu_trace_events[TR__COUNT];

void emu_trace(const IrdmaHost *host, EmuTraceId id, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* Whether the host records event @id: for a caller that must prepare many of them. */
bool emu_trace_enabled(const IrdmaHost *host, EmuTraceId id);

#endif
