/* trace.c - formats core trace events for the host's trace sink. */
#include <stdarg.h>
#include <stdio.h>
#include "core/trace.h"

const EmuTraceEvent emu_trace_events[TR__COUNT] = {
#define EMU_TRACE_ENTRY(id, name_, block, kind_) \
    [TR_##id] = { .name = #name_, .kind = EMU_TRACE_##kind_ },
    EMU_TRACE_EVENTS(EMU_TRACE_ENTRY)
#undef EMU_TRACE_ENTRY
};

void emu_trace_emit(const IrdmaHost *host, EmuTraceId id, const char *fmt, ...)
{
    char detail[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    host->ops->trace(host->opaque, id, detail);
}
