/*
 * trace.h - trace events of the device core.
 *
 * Every guest-visible decision of emu/ is traced through emu_trace() with an event of the
 * catalogue (core/trace_events.h); the host decides where the text goes (QEMU: one trace event
 * per catalogue entry, plus -d guest_errors / -d unimp for those kinds; unit tests: a recorded
 * list). Formatting, and the arguments, only happen when the host says the event is on, so a
 * disabled event costs one indirect call.
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

/* Whether the host records event @id: for a caller that must prepare many of them. */
static inline bool emu_trace_enabled(const IrdmaHost *host, EmuTraceId id)
{
    return host->ops->trace_enabled(host->opaque, id);
}

/* Formats and hands event @id to the host; emu_trace() calls it when the event is on. */
void emu_trace_emit(const IrdmaHost *host, EmuTraceId id, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

/* A disabled event's arguments are not even evaluated: the data path traces every packet. */
#define emu_trace(host, id, ...)                                         \
    do {                                                                 \
        const IrdmaHost *emu_trace_host_ = (host);                       \
        EmuTraceId emu_trace_id_ = (id);                                 \
                                                                         \
        if (emu_trace_enabled(emu_trace_host_, emu_trace_id_)) {         \
            emu_trace_emit(emu_trace_host_, emu_trace_id_, __VA_ARGS__); \
        }                                                                \
    } while (0)

#endif
