/* event.c - the deadline-ordered event queue (see event.h). */
#include "core/event.h"
#include "core/trace.h"

#define EMU_EVENT_RUN_BUDGET 4096

struct EmuEvent {
    uint64_t deadline;
    uint64_t seq;
    EmuEventFn fn;
    void *arg;
    guint index;                 /* its slot in the heap */
};

/* The queue is a binary min-heap: O(log n) schedule, cancel and pop, where a sorted sequence
 * costs a search and (glib's g_sequence_insert_sorted) a temporary tree per insert. (deadline,
 * seq) is a total order, so events run in exactly the order a sorted list gives. */
static bool event_before(const EmuEvent *x, const EmuEvent *y)
{
    return x->deadline != y->deadline ? x->deadline < y->deadline : x->seq < y->seq;
}

static EmuEvent *heap_at(const EmuEventQueue *q, guint i)
{
    return g_ptr_array_index(q->heap, i);
}

static void heap_put(EmuEventQueue *q, guint i, EmuEvent *ev)
{
    g_ptr_array_index(q->heap, i) = ev;
    ev->index = i;
}

/* Move @ev, which belongs at @i or above, up to its place. */
static void sift_up(EmuEventQueue *q, guint i, EmuEvent *ev)
{
    while (i > 0) {
        guint parent = (i - 1) / 2;
        EmuEvent *p = heap_at(q, parent);

        if (!event_before(ev, p)) {
            break;
        }
        heap_put(q, i, p);
        i = parent;
    }
    heap_put(q, i, ev);
}

/* Move @ev, which belongs at @i or below, down to its place. */
static void sift_down(EmuEventQueue *q, guint i, EmuEvent *ev)
{
    guint n = q->heap->len;

    for (;;) {
        guint child = 2 * i + 1;
        EmuEvent *c;

        if (child >= n) {
            break;
        }
        c = heap_at(q, child);
        if (child + 1 < n && event_before(heap_at(q, child + 1), c)) {
            c = heap_at(q, ++child);
        }
        if (!event_before(c, ev)) {
            break;
        }
        heap_put(q, i, c);
        i = child;
    }
    heap_put(q, i, ev);
}

/* Take @ev out of the heap (and free it). */
static void heap_remove(EmuEventQueue *q, EmuEvent *ev)
{
    guint i = ev->index;
    EmuEvent *last = g_ptr_array_steal_index(q->heap, q->heap->len - 1);

    if (last != ev) {
        /* The last event fills the hole, then moves whichever way the order says. */
        if (i > 0 && event_before(last, heap_at(q, (i - 1) / 2))) {
            sift_up(q, i, last);
        } else {
            sift_down(q, i, last);
        }
    }
    g_free(ev);
}

void emu_event_queue_init(EmuEventQueue *q, const IrdmaHost *host)
{
    *q = (EmuEventQueue) {
        .host = host,
        .heap = g_ptr_array_new_with_free_func(g_free),
        .run_budget = EMU_EVENT_RUN_BUDGET,
    };
}

void emu_event_queue_destroy(EmuEventQueue *q)
{
    if (q->armed) {
        q->host->ops->timer_cancel(q->host->opaque);
        q->armed = false;
    }
    g_ptr_array_free(q->heap, TRUE);
    q->heap = NULL;
}

/* Keep the host timer armed for the head of the queue, and only touch it when that changes. */
static void rearm(EmuEventQueue *q)
{
    const EmuEvent *head;

    if (q->running) {
        return;
    }
    if (q->heap->len == 0) {
        if (q->armed) {
            q->host->ops->timer_cancel(q->host->opaque);
            q->armed = false;
        }
        return;
    }
    head = heap_at(q, 0);
    if (!q->armed || q->armed_deadline != head->deadline) {
        q->host->ops->timer_arm(q->host->opaque, head->deadline);
        q->armed = true;
        q->armed_deadline = head->deadline;
    }
}

uint64_t emu_event_deadline(const EmuEventQueue *q, uint64_t delay_ns)
{
    uint64_t now = q->host->ops->clock_ns(q->host->opaque);

    return delay_ns > UINT64_MAX - now ? UINT64_MAX : now + delay_ns;
}

uint64_t emu_event_ticket(EmuEventQueue *q)
{
    return q->next_seq++;
}

EmuEvent *emu_event_schedule_at(EmuEventQueue *q, uint64_t deadline, uint64_t ticket,
                                EmuEventFn fn, void *arg)
{
    EmuEvent *ev = g_new(EmuEvent, 1);

    ev->deadline = deadline;
    ev->seq = ticket;
    ev->fn = fn;
    ev->arg = arg;
    g_ptr_array_add(q->heap, ev);
    sift_up(q, q->heap->len - 1, ev);
    rearm(q);
    return ev;
}

EmuEvent *emu_event_schedule(EmuEventQueue *q, uint64_t delay_ns, EmuEventFn fn, void *arg)
{
    return emu_event_schedule_at(q, emu_event_deadline(q, delay_ns), emu_event_ticket(q), fn,
                                 arg);
}

void emu_event_cancel(EmuEventQueue *q, EmuEvent *ev)
{
    heap_remove(q, ev);
    rearm(q);
}

void emu_event_cancel_all(EmuEventQueue *q)
{
    g_ptr_array_set_size(q->heap, 0);
    rearm(q);
}

void emu_event_queue_run(EmuEventQueue *q)
{
    uint64_t now = q->host->ops->clock_ns(q->host->opaque);
    uint64_t ran = 0;

    q->armed = false;           /* the timer that called us has fired */
    q->running = true;
    while (ran < q->run_budget && q->heap->len) {
        EmuEvent *ev = heap_at(q, 0);
        EmuEventFn fn;
        void *arg;

        if (ev->deadline > now) {
            break;
        }
        fn = ev->fn;
        arg = ev->arg;
        heap_remove(q, ev);     /* frees ev: the handle is dead before fn runs */
        fn(arg);
        ran++;
    }
    q->running = false;
    if (ran == q->run_budget) {
        emu_trace(q->host, TR_EVENT_BUDGET_EXHAUSTED, "ran=%" G_GUINT64_FORMAT
                  " pending=%u", ran, emu_event_queue_length(q));
    }
    rearm(q);
}

unsigned emu_event_queue_length(const EmuEventQueue *q)
{
    return q->heap->len;
}
