/*
 * trace.h - trace events of the device core.
 *
 * Every guest-visible decision of emu/ is traced through emu_trace(); the host decides where the
 * text goes (QEMU: the irdma_sim_emu trace event; unit tests: a recorded list). Formatting only
 * happens when the host says tracing is on, so disabled events cost one indirect call.
 */
#ifndef IRDMA_EMU_TRACE_H
#define IRDMA_EMU_TRACE_H

#include <glib.h>
#include "core/host.h"

void emu_trace(const IrdmaHost *host, const char *event, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);
/* Whether the host records trace events: for a caller that must prepare many of them. */
bool emu_trace_enabled(const IrdmaHost *host);

#endif
