/*
 * list-model: prints what the model implements, one item per line, for the coverage checks
 * (tests/coverage-check.sh compares it with docs/coverage.md; tools/driver-use.py compares the
 * register offsets with the drivers' own):
 *   aq 0x0001 get_version          an admin queue opcode and its handler
 *   cqp 0x20 QUERY_FPM_VAL         a CQP opcode and its handler
 *   reg 0x0009E880 PF_FUNC_RID     a BAR0 register (element 0 of an array) of a device's
 *                                  register file, as the device declares it
 * With --timing, the timing model's parameters instead (tests/timing-doc-check.sh compares
 * them with docs/timing.md):
 *   timing-clock-mhz 800 MHz
 */
#include <stdio.h>
#include <string.h>
#include <inttypes.h>
#include "emu/device.h"
#include "emu/fw/aq.h"
#include "emu/rdma/cqp.h"
#include "emu/core/regs.h"
#include "emu/core/timing.h"

static int list_timing(void)
{
    for (size_t i = 0; i < timing_param_count; i++) {
        printf("timing-%s %" PRIu64 " %s\n", timing_params[i].name, timing_params[i].def,
               timing_params[i].unit);
    }
    return 0;
}

/* A host for a device that is only built and listed: no memory, no clock, no wire. */
static int no_dma(void *opaque, uint64_t gpa, void *buf, size_t len)
{
    (void)opaque, (void)gpa, (void)buf, (void)len;
    return -1;
}

static int no_dma_write(void *opaque, uint64_t gpa, const void *buf, size_t len)
{
    (void)opaque, (void)gpa, (void)buf, (void)len;
    return -1;
}

static void no_msix(void *opaque, unsigned vector)
{
    (void)opaque, (void)vector;
}

static uint64_t no_clock(void *opaque)
{
    (void)opaque;
    return 0;
}

static void no_timer_arm(void *opaque, uint64_t deadline_ns)
{
    (void)opaque, (void)deadline_ns;
}

static void no_timer_cancel(void *opaque)
{
    (void)opaque;
}

static void no_send(void *opaque, const void *frame, size_t len)
{
    (void)opaque, (void)frame, (void)len;
}

static bool no_trace_enabled(void *opaque, EmuTraceId event)
{
    (void)opaque, (void)event;
    return false;
}

static void no_trace(void *opaque, EmuTraceId event, const char *detail)
{
    (void)opaque, (void)event, (void)detail;
}

static const IrdmaHostOps listing_host = {
    .dma_read = no_dma, .dma_write = no_dma_write, .msix_notify = no_msix,
    .clock_ns = no_clock, .timer_arm = no_timer_arm, .timer_cancel = no_timer_cancel,
    .send_frame = no_send, .trace_enabled = no_trace_enabled, .trace = no_trace,
};

static void print_reg(const EmuReg *r, void *opaque)
{
    (void)opaque;
    printf("reg 0x%08" PRIX32 " %s\n", r->base, r->name);
}

static int list_regs(void)
{
    IrdmaDevConfig cfg;
    GError *err = NULL;
    IrdmaDev *d;

    irdma_dev_config_init(&cfg);
    d = irdma_dev_new(&listing_host, NULL, &cfg, &err);
    if (!d) {
        fprintf(stderr, "list-model: the device was not built: %s\n", err->message);
        g_error_free(err);
        return 1;
    }
    emu_regfile_foreach(d->regs, print_reg, NULL);
    irdma_dev_free(d);
    return 0;
}

int main(int argc, char **argv)
{
    size_t nt;
    const AqOpcodeTable *const *tables = aq_opcode_tables(&nt);
    const CqpOpTable *const *cqp_tables;

    if (argc == 2 && !strcmp(argv[1], "--timing")) {
        return list_timing();
    }
    if (argc != 1) {
        fprintf(stderr, "usage: list-model [--timing] (not '%s')\n", argv[1]);
        return 2;
    }

    for (size_t t = 0; t < nt; t++) {
        for (size_t i = 0; i < tables[t]->n; i++) {
            printf("aq 0x%04X %s\n", tables[t]->ops[i].opcode, tables[t]->ops[i].name);
        }
    }
    cqp_tables = cqp_opcode_tables(&nt);
    for (size_t t = 0; t < nt; t++) {
        for (size_t i = 0; i < cqp_tables[t]->n; i++) {
            printf("cqp 0x%02X %s\n", cqp_tables[t]->ops[i].opcode, cqp_tables[t]->ops[i].name);
        }
    }
    return list_regs();
}
