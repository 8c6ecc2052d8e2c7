/* wire.c - the port's wire (see wire.h). */
#include "port/wire.h"
#include "core/trace.h"

#define WIRE_MAX_QUEUED  65536     /* packets per direction */

/* A frame, or looped packets that travel without one (roce.h, RoceTrain). */
typedef struct WireFrame {
    uint64_t at;               /* tx: its last bit is out; rx: it is in host memory */
    WireDest dest;             /* tx: where it goes; rx: WIRE_TO_SELF if looped */
    LoopTrain *train;          /* packets without a frame (rx, WIRE_TO_SELF), or NULL */
    unsigned npkts;            /* packets not yet handed on: 1 for a frame */
    GList link;                /* in its queue: no list node to allocate per frame */
    size_t len;
    uint8_t data[];
} WireFrame;

/* One direction: frames in time order (the timing model's units only move forward). */
typedef struct WireQueue {
    GQueue frames;
    unsigned npkts;            /* packets queued: what the limit counts */
    EmuEvent *ev;
} WireQueue;

struct Wire {
    IrdmaDev *d;
    const WireHandlers *h;
    WireQueue tx, rx;
    WireStats stats;
};

Wire *wire_new(IrdmaDev *d, const WireHandlers *h)
{
    Wire *w = g_new0(Wire, 1);

    w->d = d;
    w->h = h;
    g_queue_init(&w->tx.frames);
    g_queue_init(&w->rx.frames);
    return w;
}

static void frame_free(IrdmaDev *d, WireFrame *f)
{
    if (f->train) {
        d->wire->h->train_free(d, f->train);
    }
    g_free(f);
}

static void queue_clear(IrdmaDev *d, WireQueue *q)
{
    WireFrame *f;

    if (q->ev) {
        emu_event_cancel(&d->events, q->ev);
        q->ev = NULL;
    }
    while ((f = g_queue_peek_head(&q->frames))) {
        g_queue_unlink(&q->frames, &f->link);
        frame_free(d, f);
    }
    q->npkts = 0;
}

void wire_reset(Wire *w)
{
    queue_clear(w->d, &w->tx);
    queue_clear(w->d, &w->rx);
}

void wire_free(Wire *w)
{
    if (!w) {
        return;
    }
    wire_reset(w);
    g_free(w);
}

WireStats *wire_stats(Wire *w)
{
    return &w->stats;
}

static uint64_t now_ns(IrdmaDev *d)
{
    return d->host.ops->clock_ns(d->host.opaque);
}

/* Keep the queue's event on its head frame. */
static void rearm(IrdmaDev *d, WireQueue *q, EmuEventFn fn)
{
    WireFrame *head = g_queue_peek_head(&q->frames);
    uint64_t now;

    if (q->ev) {
        emu_event_cancel(&d->events, q->ev);
        q->ev = NULL;
    }
    if (head) {
        now = now_ns(d);
        q->ev = emu_event_schedule(&d->events, head->at > now ? head->at - now : 0, fn, d->wire);
    }
}

static void push(IrdmaDev *d, WireQueue *q, WireFrame *f, EmuEventFn fn)
{
    f->link.data = f;
    g_queue_push_tail_link(&q->frames, &f->link);
    q->npkts += f->npkts;
    if (g_queue_get_length(&q->frames) == 1) {
        rearm(d, q, fn);
    }
}

static bool enqueue(IrdmaDev *d, WireQueue *q, uint64_t at, WireDest dest, const uint8_t *frame,
                    size_t len, EmuEventFn fn)
{
    WireFrame *f;

    if (q->npkts >= WIRE_MAX_QUEUED) {
        d->wire->stats.dropped++;
        emu_trace(&d->host, "wire_dropped", "len %zu: %u frames queued", len, WIRE_MAX_QUEUED);
        return false;
    }
    f = g_malloc(sizeof(*f) + len);
    *f = (WireFrame) { .at = at, .dest = dest, .npkts = 1, .len = len };
    memcpy(f->data, frame, len);
    push(d, q, f, fn);
    return true;
}

static void rx_due(void *opaque);
static void tx_due(void *opaque);

/* The receive side takes a frame whose last bit arrived now: from the network (@far_end: it
 * crossed a cable), or looped (WIRE_TO_SELF: to the RDMA engine; WIRE_TO_NETWORK without
 * @far_end: by the MAC, to the LAN receive side). */
static void arrive(IrdmaDev *d, const uint8_t *frame, size_t len, WireDest from, bool far_end)
{
    uint64_t now = now_ns(d);

    /* The far end's MAC, PHY and the cable are charged to the receiver. */
    if (far_end && d->timing.mode == TIMING_MODEL) {
        now += d->timing.p.wire_ns;
    }
    enqueue(d, &d->wire->rx, timing_rx_frame(&d->timing, now, len), from, frame, len, rx_due);
}

static void to_network(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    if (d->wire->h->mac_loopback(d)) {
        /* MAC loopback: the frame turns round in the MAC and never reaches the network. */
        emu_trace(&d->host, "wire_mac_looped", "len %zu dst %02x:%02x:%02x:%02x:%02x:%02x", len,
                  frame[0], frame[1], frame[2], frame[3], frame[4], frame[5]);
        arrive(d, frame, len, WIRE_TO_NETWORK, false);
        return;
    }
    if (!d->wire->h->link_up(d)) {
        return;
    }
    d->host.ops->send_frame(d->host.opaque, frame, len);
}

uint64_t wire_transmit(IrdmaDev *d, const uint8_t *frame, size_t len, size_t dma_bytes,
                       WireDest dest)
{
    uint64_t done = timing_tx_frame(&d->timing, now_ns(d), dma_bytes, len);

    if (d->timing.mode == TIMING_INLINE) {
        if (dest == WIRE_TO_SELF) {
            arrive(d, frame, len, dest, false);
        } else {
            to_network(d, frame, len);
        }
        return done;
    }
    enqueue(d, &d->wire->tx, done, dest, frame, len, tx_due);
    return done;
}

unsigned wire_loop_room(IrdmaDev *d)
{
    unsigned queued = d->wire->rx.npkts;

    return queued < WIRE_MAX_QUEUED ? WIRE_MAX_QUEUED - queued : 0;
}

void wire_loop_train(IrdmaDev *d, LoopTrain *t, unsigned npkts)
{
    WireFrame *f = g_new(WireFrame, 1);

    *f = (WireFrame) {
        .at = now_ns(d), .dest = WIRE_TO_SELF, .train = t, .npkts = npkts,
    };
    push(d, &d->wire->rx, f, rx_due);
}

void wire_receive(IrdmaDev *d, const uint8_t *frame, size_t len)
{
    if (!d->wire->h->link_up(d)) {
        return;
    }
    if (d->timing.mode == TIMING_INLINE) {
        d->wire->h->rx_frame(d, frame, len);
        return;
    }
    arrive(d, frame, len, WIRE_TO_NETWORK, true);
}

/* Hand on the due packets of @q, at most the run budget of them, then re-arm. @handle hands on
 * up to its @max packets of @f and returns how many. */
static void run_queue(IrdmaDev *d, WireQueue *q, EmuEventFn fn,
                      unsigned (*handle)(IrdmaDev *d, WireFrame *f, unsigned max))
{
    unsigned budget = d->events.run_budget, n;
    uint64_t now = now_ns(d);
    WireFrame *f;

    while (budget && (f = g_queue_peek_head(&q->frames)) && f->at <= now) {
        /* Off the queue while it is handled: what that sends joins the queue behind it. */
        g_queue_unlink(&q->frames, &f->link);
        q->npkts -= f->npkts;
        n = handle(d, f, budget);
        budget -= n;
        f->npkts -= n;
        if (f->npkts) {
            /* A train the budget ran out in: the rest goes first next time. */
            g_queue_push_head_link(&q->frames, &f->link);
            q->npkts += f->npkts;
        } else {
            frame_free(d, f);
        }
    }
    rearm(d, q, fn);
}

static unsigned tx_handle(IrdmaDev *d, WireFrame *f, unsigned max)
{
    (void)max;
    if (f->dest == WIRE_TO_SELF) {
        arrive(d, f->data, f->len, WIRE_TO_SELF, false);
    } else {
        to_network(d, f->data, f->len);
    }
    return 1;
}

static unsigned rx_handle(IrdmaDev *d, WireFrame *f, unsigned max)
{
    const WireHandlers *h = d->wire->h;

    if (f->train) {
        return h->rx_train(d, f->train, max);
    }
    if (f->dest == WIRE_TO_SELF) {
        h->rx_looped(d, f->data, f->len);
    } else if (h->link_up(d)) {
        h->rx_frame(d, f->data, f->len);
    }
    return 1;
}

static void tx_due(void *opaque)
{
    Wire *w = opaque;

    w->tx.ev = NULL;
    run_queue(w->d, &w->tx, tx_due, tx_handle);
}

static void rx_due(void *opaque)
{
    Wire *w = opaque;

    w->rx.ev = NULL;
    run_queue(w->d, &w->rx, rx_due, rx_handle);
}

void wire_drain(IrdmaDev *d)
{
    Wire *w = d->wire;

    if (w->rx.ev) {
        emu_event_cancel(&d->events, w->rx.ev);
        w->rx.ev = NULL;
    }
    run_queue(d, &w->rx, rx_due, rx_handle);
}

uint64_t wire_backlog_ns(IrdmaDev *d)
{
    return timing_wire_backlog_ns(&d->timing, now_ns(d));
}
