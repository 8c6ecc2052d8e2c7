/* trace.c - formats core trace events for the host's trace sink. */
#include <stdarg.h>
#include <stdio.h>
#include "core/trace.h"

bool emu_trace_enabled(const IrdmaHost *host)
{
    return host->ops->trace_enabled(host->opaque);
}

void emu_trace(const IrdmaHost *host, const char *event, const char *fmt, ...)
{
    char detail[256];
    va_list ap;

    if (!emu_trace_enabled(host)) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    host->ops->trace(host->opaque, event, detail);
}
