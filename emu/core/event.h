/*
 * event.h - the device's single event queue.
 *
 * Every asynchronous device action (a completion write-back, an interrupt, a timeout) is an
 * event with an absolute deadline on the host's virtual clock. The queue keeps them ordered by
 * (deadline, insertion order), keeps exactly one host timer armed for the earliest one, and runs
 * everything that is due when that timer fires. This is the one place the timing model acts:
 * it only chooses the delays.
 */
#ifndef IRDMA_EMU_EVENT_H
#define IRDMA_EMU_EVENT_H

#include <glib.h>
#include "core/host.h"

typedef void (*EmuEventFn)(void *arg);

typedef struct EmuEvent EmuEvent;

typedef struct EmuEventQueue {
    const IrdmaHost *host;
    GPtrArray *heap;             /* of EmuEvent: a min-heap on (deadline, seq) */
    uint64_t next_seq;
    uint64_t armed_deadline;     /* deadline the host timer is armed for */
    bool armed;
    bool running;                /* inside emu_event_queue_run(): re-arm once at the end */
    uint64_t run_budget;         /* max events per run, so a storm cannot stall the host */
} EmuEventQueue;

void emu_event_queue_init(EmuEventQueue *q, const IrdmaHost *host);
void emu_event_queue_destroy(EmuEventQueue *q);

/* Schedule @fn(@arg) @delay_ns from now. The returned handle stays valid until the event runs
 * or is cancelled. */
EmuEvent *emu_event_schedule(EmuEventQueue *q, uint64_t delay_ns, EmuEventFn fn, void *arg);

/*
 * A timer restarted far more often than it expires keeps one event and notes its deadline:
 * emu_event_deadline() is what emu_event_schedule() would give an event @delay_ns from now,
 * and emu_event_ticket() its place among events of the same deadline. Scheduled later with
 * both, an event runs exactly where one scheduled then would have.
 */
uint64_t emu_event_deadline(const EmuEventQueue *q, uint64_t delay_ns);
uint64_t emu_event_ticket(EmuEventQueue *q);
EmuEvent *emu_event_schedule_at(EmuEventQueue *q, uint64_t deadline, uint64_t ticket,
                                EmuEventFn fn, void *arg);
void emu_event_cancel(EmuEventQueue *q, EmuEvent *ev);
/* Drop every pending event (device reset). */
void emu_event_cancel_all(EmuEventQueue *q);

/* Host timer callback: run every due event (at most run_budget; the rest re-arm at now). */
void emu_event_queue_run(EmuEventQueue *q);

unsigned emu_event_queue_length(const EmuEventQueue *q);

#endif
