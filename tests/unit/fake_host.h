/*
 * fake_host.h - a host for the device core in unit tests: guest memory is a byte array, the
 * clock is a variable the test advances, interrupts, frames and trace events are recorded.
 */
#ifndef IRDMA_TEST_FAKE_HOST_H
#define IRDMA_TEST_FAKE_HOST_H

#include <glib.h>
#include "emu/device.h"
#include "emu/core/trace_events.h"

typedef struct FakeHost {
    uint8_t *mem;
    size_t mem_size;
    uint64_t now_ns;
    uint64_t clock_tick_ns;    /* each read of the clock moves it on this much (a host whose
                                * clock runs while the device works); 0: it stands still */
    unsigned clock_reads;      /* reads of the clock so far */
    bool timer_armed;
    uint64_t timer_deadline;
    unsigned timer_arms;
    GArray *irqs;              /* unsigned: vectors in raise order */
    GPtrArray *frames;         /* GBytes */
    GPtrArray *traces;         /* char *: "event: detail" */
    bool quiet;                /* record no trace events (the fuzzer) */
    bool trace_one;            /* record only the event trace_only (as -trace NAME does) */
    EmuTraceId trace_only;
    bool drop_frames;          /* keep no sent frames (the fuzzer's LAN start: one doorbell
                                * may send thousands of TSO segments) */
    bool no_dma_map;           /* dma_map maps nothing */
    size_t dma_map_max;        /* dma_map maps at most this many bytes (0: no limit) */
    unsigned dma_maps;         /* mappings not yet unmapped */
} FakeHost;

extern const IrdmaHostOps fake_host_ops;

FakeHost *fake_host_new(size_t mem_size);
/* Back to the state fake_host_new() left: zero memory, clock 0, nothing recorded (the fuzzer
 * reuses one host). */
void fake_host_clear(FakeHost *h);
void fake_host_free(FakeHost *h);
/* Move the clock to @ns and fire the timer if it is due (the QEMU main loop's job). */
void fake_host_advance(FakeHost *h, IrdmaDev *d, uint64_t ns);
/* Number of recorded trace lines starting with @prefix. */
unsigned fake_host_trace_count(const FakeHost *h, const char *prefix);
IrdmaDev *fake_dev_new(FakeHost *h);
/* The same on other host operations (fake_host_ops with some changed). */
IrdmaDev *fake_dev_new_ops(FakeHost *h, const IrdmaHostOps *ops);

#endif
