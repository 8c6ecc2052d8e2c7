/* wire.c - the port's wire (see wire.h). */
#include <sys/queue.h>
#include "port/wire.h"
#include "core/e810_regs.h"
#include "core/inet.h"
#include "core/regs.h"
#include "core/spares.h"
#include "core/trace.h"

#define WIRE_MAX_QUEUED  65536     /* packets per direction */

/* The MAC's statistics (GLPRT_*, core/e810_regs.h): split 40-bit counters per port; the
 * device's one port is port 0. Octets and the size buckets count each frame with its 4-byte
 * FCS, as the MAC sees it. */
#define PORT_STAT_PORT          0

/* The counters, in the order of port_stat_regs[]. */
typedef enum PortStat {
    PS_GORC, PS_UPRC, PS_MPRC, PS_BPRC,         /* received: octets, uni/multi/broadcast */
    PS_GOTC, PS_UPTC, PS_MPTC, PS_BPTC,         /* transmitted */
    PS_PRC64, PS_PRC127, PS_PRC255, PS_PRC511, PS_PRC1023, PS_PRC1522, PS_PRC9522,
    PS_PTC64, PS_PTC127, PS_PTC255, PS_PTC511, PS_PTC1023, PS_PTC1522, PS_PTC9522,
    PS_NUM
} PortStat;

/* Upper bounds of the size buckets (64 .. 9522 bytes, FCS included). */
static const unsigned size_bucket_max[] = { 64, 127, 255, 511, 1023, 1522, 9522 };

/* A frame, or looped packets that travel without one (roce.h, RoceTrain). */
typedef struct WireFrame {
    uint64_t at;               /* tx: its last bit is out; rx: it is in host memory */
    WireDest dest;             /* tx: where it goes; rx: WIRE_TO_SELF if looped */
    LoopTrain *train;          /* packets without a frame (rx, WIRE_TO_SELF), or NULL */
    unsigned npkts;            /* packets not yet handed on: 1 for a frame */
    TAILQ_ENTRY(WireFrame) link;   /* in its queue */
    size_t len;
    uint8_t data[];
} WireFrame;

/* One direction: frames in time order (the timing model's units only move forward). */
typedef struct WireQueue {
    TAILQ_HEAD(, WireFrame) frames;
    unsigned npkts;            /* packets queued: what the limit counts */
    EmuEvent *ev;
} WireQueue;

struct Wire {
    IrdmaDev *d;
    const WireHandlers *h;
    WireQueue tx, rx;
    WireStats stats;
    uint64_t port_stats[PS_NUM];
    Spares spare;              /* WireFrame without data, for the next trains */
};

static uint32_t port_stat_read(void *blk, const EmuReg *r, unsigned idx);

#define PORT_STAT_REG(reg) \
    EMU_REG_SPLIT40(#reg, reg(PORT_STAT_PORT), GLPRT_PORT_COUNT, port_stat_read)

static const EmuReg port_stat_regs[PS_NUM] = {
    [PS_GORC] = PORT_STAT_REG(GLPRT_GORCL),
    [PS_UPRC] = PORT_STAT_REG(GLPRT_UPRCL),
    [PS_MPRC] = PORT_STAT_REG(GLPRT_MPRCL),
    [PS_BPRC] = PORT_STAT_REG(GLPRT_BPRCL),
    [PS_GOTC] = PORT_STAT_REG(GLPRT_GOTCL),
    [PS_UPTC] = PORT_STAT_REG(GLPRT_UPTCL),
    [PS_MPTC] = PORT_STAT_REG(GLPRT_MPTCL),
    [PS_BPTC] = PORT_STAT_REG(GLPRT_BPTCL),
    [PS_PRC64] = PORT_STAT_REG(GLPRT_PRC64L),
    [PS_PRC127] = PORT_STAT_REG(GLPRT_PRC127L),
    [PS_PRC255] = PORT_STAT_REG(GLPRT_PRC255L),
    [PS_PRC511] = PORT_STAT_REG(GLPRT_PRC511L),
    [PS_PRC1023] = PORT_STAT_REG(GLPRT_PRC1023L),
    [PS_PRC1522] = PORT_STAT_REG(GLPRT_PRC1522L),
    [PS_PRC9522] = PORT_STAT_REG(GLPRT_PRC9522L),
    [PS_PTC64] = PORT_STAT_REG(GLPRT_PTC64L),
    [PS_PTC127] = PORT_STAT_REG(GLPRT_PTC127L),
    [PS_PTC255] = PORT_STAT_REG(GLPRT_PTC255L),
    [PS_PTC511] = PORT_STAT_REG(GLPRT_PTC511L),
    [PS_PTC1023] = PORT_STAT_REG(GLPRT_PTC1023L),
    [PS_PTC1522] = PORT_STAT_REG(GLPRT_PTC1522L),
    [PS_PTC9522] = PORT_STAT_REG(GLPRT_PTC9522L),
};

static uint32_t port_stat_read(void *blk, const EmuReg *r, unsigned idx)
{
    Wire *w = blk;

    if (emu_split40_counter(r, idx) != PORT_STAT_PORT) {
        return 0;                  /* the ports the device does not have */
    }
    return emu_split40_read(r, idx, w->port_stats[r - port_stat_regs]);
}

/* The MAC counts a frame it received (@rx) or transmitted: octets, class, size bucket. */
static void port_count(Wire *w, const uint8_t *frame, size_t len, bool rx)
{
    static const uint8_t bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint64_t *c = w->port_stats;
    size_t wire_len = len + ETH_FCS_LEN;
    unsigned b = 0;

    if (len < ETH_ALEN) {
        return;
    }
    c[rx ? PS_GORC : PS_GOTC] += wire_len;
    if (!memcmp(frame, bcast, ETH_ALEN)) {
        c[rx ? PS_BPRC : PS_BPTC]++;
    } else if (frame[0] & ETH_GROUP_BIT) {
        c[rx ? PS_MPRC : PS_MPTC]++;
    } else {
        c[rx ? PS_UPRC : PS_UPTC]++;
    }
    while (b + 1 < G_N_ELEMENTS(size_bucket_max) && wire_len > size_bucket_max[b]) {
        b++;
    }
    c[(rx ? PS_PRC64 : PS_PTC64) + b]++;
}

void wire_stats_clear(Wire *w)
{
    memset(w->port_stats, 0, sizeof(w->port_stats));
}

Wire *wire_new(IrdmaDev *d, const WireHandlers *h)
{
    Wire *w = g_new0(Wire, 1);

    w->d = d;
    w->h = h;
    TAILQ_INIT(&w->tx.frames);
    TAILQ_INIT(&w->rx.frames);
    emu_regfile_add(d->regs, port_stat_regs, G_N_ELEMENTS(port_stat_regs), w);
    return w;
}

static void frame_free(IrdmaDev *d, WireFrame *f)
{
    if (f->train) {
        d->wire->h->train_free(d, f->train);
        /* A train's WireFrame has no data: any other train can use it. */
        spares_give(&d->wire->spare, f);
        return;
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
    while ((f = TAILQ_FIRST(&q->frames))) {
        TAILQ_REMOVE(&q->frames, f, link);
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
    spares_free(&w->spare);
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
    WireFrame *head = TAILQ_FIRST(&q->frames);
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
    bool was_empty = TAILQ_EMPTY(&q->frames);

    TAILQ_INSERT_TAIL(&q->frames, f, link);
    q->npkts += f->npkts;
    if (was_empty) {
        rearm(d, q, fn);
    }
}

static bool enqueue(IrdmaDev *d, WireQueue *q, uint64_t at, WireDest dest, const uint8_t *frame,
                    size_t len, EmuEventFn fn)
{
    WireFrame *f;

    if (q->npkts >= WIRE_MAX_QUEUED) {
        d->wire->stats.dropped++;
        emu_trace(&d->host, TR_WIRE_DROPPED, "len %zu: %u frames queued", len, WIRE_MAX_QUEUED);
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
        port_count(d->wire, frame, len, false);
        port_count(d->wire, frame, len, true);
        /* MAC loopback: the frame turns round in the MAC and never reaches the network. */
        emu_trace(&d->host, TR_WIRE_MAC_LOOPED, "len %zu dst %02x:%02x:%02x:%02x:%02x:%02x", len,
                  frame[0], frame[1], frame[2], frame[3], frame[4], frame[5]);
        arrive(d, frame, len, WIRE_TO_NETWORK, false);
        return;
    }
    if (!d->wire->h->link_up(d)) {
        return;
    }
    port_count(d->wire, frame, len, false);
    d->host.ops->send_frame(d->host.opaque, frame, len);
}

/* A frame leaves the MAC: for the network, looped to the RDMA engine, or both. */
static void depart(IrdmaDev *d, const uint8_t *frame, size_t len, WireDest dest)
{
    if (dest != WIRE_TO_NETWORK) {
        arrive(d, frame, len, WIRE_TO_SELF, false);
    }
    if (dest != WIRE_TO_SELF) {
        to_network(d, frame, len);
    }
}

uint64_t wire_transmit(IrdmaDev *d, const uint8_t *frame, size_t len, size_t dma_bytes,
                       WireDest dest)
{
    uint64_t done = timing_tx_frame(&d->timing, now_ns(d), dma_bytes, len);

    if (d->timing.mode == TIMING_INLINE) {
        depart(d, frame, len, dest);
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
    WireFrame *f = spares_take(&d->wire->spare, sizeof(*f));

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
    port_count(d->wire, frame, len, true);
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

    while (budget && (f = TAILQ_FIRST(&q->frames))) {
        /* A frame this loop queued (the answer to one it handled: a READ response, an ACK)
         * was stamped after the clock was read: read it again before leaving the frame to the
         * timer. Under -icount the clock stands still in here, so nothing changes there. */
        if (f->at > now && f->at > (now = now_ns(d))) {
            break;
        }
        /* Off the queue while it is handled: what that sends joins the queue behind it. */
        TAILQ_REMOVE(&q->frames, f, link);
        q->npkts -= f->npkts;
        n = handle(d, f, budget);
        budget -= n;
        f->npkts -= n;
        if (f->npkts) {
            /* A train the budget ran out in: the rest goes first next time. */
            TAILQ_INSERT_HEAD(&q->frames, f, link);
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
    depart(d, f->data, f->len, f->dest);
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
