/* event.c - the deadline-ordered event queue (see event.h). */
#include "event.h"
#include "trace.h"

#define EMU_EVENT_RUN_BUDGET 4096

struct EmuEvent {
    uint64_t deadline;
    uint64_t seq;
    EmuEventFn fn;
    void *arg;
    GSequenceIter *iter;
};

static gint event_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
    const EmuEvent *x = a, *y = b;

    (void)unused;
    if (x->deadline != y->deadline) {
        return x->deadline < y->deadline ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

void emu_event_queue_init(EmuEventQueue *q, const IrdmaHost *host)
{
    *q = (EmuEventQueue) {
        .host = host,
        .pending = g_sequence_new(g_free),
        .run_budget = EMU_EVENT_RUN_BUDGET,
    };
}

void emu_event_queue_destroy(EmuEventQueue *q)
{
    if (q->armed) {
        q->host->ops->timer_cancel(q->host->opaque);
        q->armed = false;
    }
    g_sequence_free(q->pending);
    q->pending = NULL;
}

/* Keep the host timer armed for the head of the queue, and only touch it when that changes. */
static void rearm(EmuEventQueue *q)
{
    GSequenceIter *first;
    const EmuEvent *head;

    if (q->running) {
        return;
    }
    first = g_sequence_get_begin_iter(q->pending);
    if (g_sequence_iter_is_end(first)) {
        if (q->armed) {
            q->host->ops->timer_cancel(q->host->opaque);
            q->armed = false;
        }
        return;
    }
    head = g_sequence_get(first);
    if (!q->armed || q->armed_deadline != head->deadline) {
        q->host->ops->timer_arm(q->host->opaque, head->deadline);
        q->armed = true;
        q->armed_deadline = head->deadline;
    }
}

EmuEvent *emu_event_schedule(EmuEventQueue *q, uint64_t delay_ns, EmuEventFn fn, void *arg)
{
    EmuEvent *ev = g_new(EmuEvent, 1);
    uint64_t now = q->host->ops->clock_ns(q->host->opaque);

    ev->deadline = delay_ns > UINT64_MAX - now ? UINT64_MAX : now + delay_ns;
    ev->seq = q->next_seq++;
    ev->fn = fn;
    ev->arg = arg;
    ev->iter = g_sequence_insert_sorted(q->pending, ev, event_cmp, NULL);
    rearm(q);
    return ev;
}

void emu_event_cancel(EmuEventQueue *q, EmuEvent *ev)
{
    g_sequence_remove(ev->iter);
    rearm(q);
}

void emu_event_cancel_all(EmuEventQueue *q)
{
    g_sequence_remove_range(g_sequence_get_begin_iter(q->pending),
                            g_sequence_get_end_iter(q->pending));
    rearm(q);
}

void emu_event_queue_run(EmuEventQueue *q)
{
    uint64_t now = q->host->ops->clock_ns(q->host->opaque);
    uint64_t ran = 0;

    q->armed = false;           /* the timer that called us has fired */
    q->running = true;
    while (ran < q->run_budget) {
        GSequenceIter *first = g_sequence_get_begin_iter(q->pending);
        EmuEvent *ev;
        EmuEventFn fn;
        void *arg;

        if (g_sequence_iter_is_end(first)) {
            break;
        }
        ev = g_sequence_get(first);
        if (ev->deadline > now) {
            break;
        }
        fn = ev->fn;
        arg = ev->arg;
        g_sequence_remove(first);   /* frees ev: the handle is dead before fn runs */
        fn(arg);
        ran++;
    }
    q->running = false;
    if (ran == q->run_budget) {
        emu_trace(q->host, "event_budget_exhausted", "ran=%" G_GUINT64_FORMAT
                  " pending=%u", ran, emu_event_queue_length(q));
    }
    rearm(q);
}

unsigned emu_event_queue_length(const EmuEventQueue *q)
{
    return g_sequence_get_length(q->pending);
}
