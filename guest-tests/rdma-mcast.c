/*
 * rdma-mcast: UD multicast through a device's own RoCE v2 GID, one step at a time in one
 * process: attach, send to the group, detach, send again.
 *
 *   rdma-mcast DEVICE GID_INDEX
 *
 * Two receiving UD QPs and a sending one. Each round attaches or detaches a receiver from the
 * IPv4 group 239.1.2.3 (irdma: the first attach creates the group context, the next ones
 * modify its member list, the last detach destroys it), then sends one datagram to the group
 * (DQPN 0xFFFFFF) and checks who got it:
 *   two-members      both receivers attached: each gets the datagram
 *   one-member       the first detached: only the second gets it
 *   no-member        the last detached: nobody gets it
 *   member-again     the first attached again (a new group): only it gets it
 * A copy that arrives is checked whole: status, length (40-byte GRH area and payload), source
 * QP, the GRH flag, the IPv4 header's destination in the GRH area, and every payload byte.
 * A receiver that must get nothing is watched until a unicast datagram sent after the group's
 * has reached it and for ABSENT_WAIT_S more. Prints "ok ROUND" or "FAIL ROUND: why" per round,
 * then "rdma-mcast: N ok, N failed"; exits 1 if a round failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "guest-util.h"

#define GROUP_IPV4 "239.1.2.3"
#define MCAST_QPN 0xffffff
#define QKEY 0x1ee7c0de
#define MSG_LEN 256
#define GRH_LEN 40
#define IPV4_IN_GRH 20            /* RoCE v2 over IPv4: the IP header fills the GRH's last 20 */
#define IPV4_DADDR_OFF 16
#define SLOT (GRH_LEN + MSG_LEN + 64)
#define RECEIVERS 2
#define RECVS_POSTED 4            /* per receiver: more than one round can wrongly deliver */
#define WAIT_S 5.0
#define ABSENT_WAIT_S 0.3

struct ud {
    struct ibv_qp *qp;
    struct ibv_cq *cq;
    uint8_t *buf;                 /* RECVS_POSTED slots, each SLOT bytes */
    unsigned posted, taken;       /* receives posted so far, completions taken so far */
};

struct mcast {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_mr *mr;
    uint8_t *mem;
    struct ud rx[RECEIVERS], tx;
    struct ibv_ah *group_ah, *self_ah;
    union ibv_gid group, self;
    bool attached[RECEIVERS];
};

static struct ud ud_create(struct mcast *m, uint8_t *buf)
{
    struct ud u = { .buf = buf };
    struct ibv_qp_init_attr ia = {
        .qp_type = IBV_QPT_UD,
        .cap = { .max_send_wr = 4, .max_recv_wr = RECVS_POSTED, .max_send_sge = 1,
                 .max_recv_sge = 1 },
    };
    const char *step;
    int err;

    if (!(u.cq = ibv_create_cq(m->ctx, 2 * RECVS_POSTED, NULL, NULL, 0))) {
        die("ibv_create_cq: %s", strerror(errno));
    }
    ia.send_cq = ia.recv_cq = u.cq;
    if (!(u.qp = ibv_create_qp(m->pd, &ia))) {
        die("ibv_create_qp UD: %s", strerror(errno));
    }
    err = ud_to_rts(u.qp, QKEY, 1, &step);
    if (err) {
        die("UD QP to %s: %s", step, strerror(err));
    }
    return u;
}

/* Posts receives on @u until RECVS_POSTED are outstanding, each into the slot the oldest
 * completion freed (receives complete in order); 0 or the errno of a refused post. */
static int top_up_recvs(struct mcast *m, struct ud *u)
{
    while (u->posted - u->taken < RECVS_POSTED) {
        unsigned i = u->posted % RECVS_POSTED;
        struct ibv_sge sge = { .addr = (uintptr_t)(u->buf + i * SLOT), .length = SLOT,
                               .lkey = m->mr->lkey };
        struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

        memset(u->buf + i * SLOT, 0, SLOT);
        if (ibv_post_recv(u->qp, &wr, &bad)) {
            return errno;
        }
        u->posted++;
    }
    return 0;
}

static struct ibv_ah *ah_to(struct mcast *m, const union ibv_gid *dgid, int gid_index)
{
    struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
                              .grh = { .dgid = *dgid, .sgid_index = gid_index,
                                       .hop_limit = 1 } };
    struct ibv_ah *ah = ibv_create_ah(m->pd, &aa);

    if (!ah) {
        die("ibv_create_ah: %s", strerror(errno));
    }
    return ah;
}

static void setup(struct mcast *m, const char *dev, int gid_index)
{
    struct ibv_port_attr pa;
    size_t size = (RECEIVERS + 1) * RECVS_POSTED * SLOT;
    int err;

    m->ctx = open_port(dev, gid_index, &m->self, &pa);
    m->mem = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
    if (!m->mem || !(m->pd = ibv_alloc_pd(m->ctx)) ||
        !(m->mr = ibv_reg_mr(m->pd, m->mem, size, IBV_ACCESS_LOCAL_WRITE))) {
        die("memory, PD or MR on %s: %s", dev, strerror(errno));
    }
    for (int r = 0; r < RECEIVERS; r++) {
        m->rx[r] = ud_create(m, m->mem + r * RECVS_POSTED * SLOT);
        err = top_up_recvs(m, &m->rx[r]);
        if (err) {
            die("ibv_post_recv: %s", strerror(err));
        }
    }
    m->tx = ud_create(m, m->mem + RECEIVERS * RECVS_POSTED * SLOT);
    /* ::ffff:239.1.2.3, the group's IPv4 address as a GID. */
    memset(&m->group, 0, sizeof(m->group));
    m->group.raw[10] = m->group.raw[11] = 0xff;
    if (inet_pton(AF_INET, GROUP_IPV4, &m->group.raw[12]) != 1) {
        die("bad group address %s", GROUP_IPV4);
    }
    m->group_ah = ah_to(m, &m->group, gid_index);
    m->self_ah = ah_to(m, &m->self, gid_index);
}

/* Byte @i of the datagram with @seed. */
static uint8_t pattern(unsigned seed, unsigned i)
{
    return (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

/* Sends one datagram with @seed through @ah to @qpn and waits for its send completion. */
static bool send_one(struct mcast *m, struct ibv_ah *ah, uint32_t qpn, unsigned seed,
                     char *why, size_t n)
{
    struct ibv_sge sge = { .addr = (uintptr_t)m->tx.buf, .length = MSG_LEN,
                           .lkey = m->mr->lkey };
    struct ibv_send_wr wr = { .wr_id = seed, .sg_list = &sge, .num_sge = 1,
                              .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
                              .wr.ud = { .ah = ah, .remote_qpn = qpn, .remote_qkey = QKEY } };
    struct ibv_send_wr *bad;
    struct ibv_wc wc;
    int got = 0;

    for (unsigned i = 0; i < MSG_LEN; i++) {
        m->tx.buf[i] = pattern(seed, i);
    }
    if (ibv_post_send(m->tx.qp, &wr, &bad)) {
        snprintf(why, n, "ibv_post_send: %s", strerror(errno));
        return false;
    }
    for (double end = now() + WAIT_S; !got && now() < end;) {
        got = ibv_poll_cq(m->tx.cq, 1, &wc);
    }
    if (got != 1 || wc.status != IBV_WC_SUCCESS) {
        snprintf(why, n, "datagram %u: %s", seed,
                 got == 1 ? ibv_wc_status_str(wc.status) : "no send completion");
        return false;
    }
    return true;
}

/* Takes receiver @r's next completion within @wait_s: 1 with it in *@wc, 0 if none came,
 * -1 (with @why) on a poll error. */
static int take(struct mcast *m, int r, double wait_s, struct ibv_wc *wc, char *why, size_t n)
{
    struct ud *u = &m->rx[r];
    double end = now() + wait_s;
    int got;

    do {
        got = ibv_poll_cq(u->cq, 1, wc);
    } while (!got && now() < end);
    if (got < 0) {
        snprintf(why, n, "receiver %d: ibv_poll_cq failed", r);
        return -1;
    }
    u->taken += got;
    return got;
}

/* Checks receiver @r's completion @wc against the datagram with @seed from the sender to
 * @dst_ipv4 (network order). */
static bool check_copy(struct mcast *m, int r, const struct ibv_wc *wc, unsigned seed,
                       const uint8_t *dst_ipv4, char *why, size_t n)
{
    const uint8_t *slot = m->rx[r].buf + (wc->wr_id % RECVS_POSTED) * SLOT;

    if (wc->wr_id >= RECVS_POSTED) {
        snprintf(why, n, "receiver %d: a completion for wr_id %llu, never posted", r,
                 (unsigned long long)wc->wr_id);
        return false;
    }
    if (wc->status != IBV_WC_SUCCESS || wc->opcode != IBV_WC_RECV) {
        snprintf(why, n, "receiver %d: status %s, opcode %d", r,
                 ibv_wc_status_str(wc->status), wc->opcode);
        return false;
    }
    if (wc->byte_len != GRH_LEN + MSG_LEN || wc->src_qp != m->tx.qp->qp_num ||
        !(wc->wc_flags & IBV_WC_GRH)) {
        snprintf(why, n, "receiver %d: byte_len %u (want %u), src_qp %u (want %u), flags 0x%x",
                 r, wc->byte_len, GRH_LEN + MSG_LEN, wc->src_qp, m->tx.qp->qp_num,
                 wc->wc_flags);
        return false;
    }
    if (slot[IPV4_IN_GRH] >> 4 != 4 ||
        memcmp(slot + IPV4_IN_GRH + IPV4_DADDR_OFF, dst_ipv4, 4)) {
        snprintf(why, n, "receiver %d: the GRH area holds no IPv4 header to %u.%u.%u.%u", r,
                 dst_ipv4[0], dst_ipv4[1], dst_ipv4[2], dst_ipv4[3]);
        return false;
    }
    for (unsigned i = 0; i < MSG_LEN; i++) {
        if (slot[GRH_LEN + i] != pattern(seed, i)) {
            snprintf(why, n, "receiver %d: payload byte %u is 0x%02x, want 0x%02x (datagram %u)",
                     r, i, slot[GRH_LEN + i], pattern(seed, i), seed);
            return false;
        }
    }
    return true;
}

/* Attaches (@on) or detaches receiver @r. */
static bool member(struct mcast *m, int r, bool on, char *why, size_t n)
{
    int err = on ? ibv_attach_mcast(m->rx[r].qp, &m->group, 0)
                 : ibv_detach_mcast(m->rx[r].qp, &m->group, 0);

    if (err) {
        snprintf(why, n, "ibv_%s_mcast of receiver %d: %s", on ? "attach" : "detach", r,
                 strerror(err));
        return false;
    }
    m->attached[r] = on;
    return true;
}

/* One datagram to the group, numbered @seed: every attached receiver gets one whole copy; the
 * others get nothing, not even once a unicast datagram sent after it reached them. */
static bool round_trip(struct mcast *m, unsigned seed, char *why, size_t n)
{
    struct ibv_wc wc;

    if (!send_one(m, m->group_ah, MCAST_QPN, seed, why, n)) {
        return false;
    }
    for (int r = 0; r < RECEIVERS; r++) {
        int got;

        if (!m->attached[r]) {
            continue;
        }
        got = take(m, r, WAIT_S, &wc, why, n);
        if (got < 0) {
            return false;
        }
        if (!got) {
            snprintf(why, n, "receiver %d is attached but got nothing in %.0f s", r, WAIT_S);
            return false;
        }
        if (!check_copy(m, r, &wc, seed, &m->group.raw[12], why, n)) {
            return false;
        }
    }
    for (int r = 0; r < RECEIVERS; r++) {
        unsigned fence = seed + 1000;

        if (m->attached[r]) {
            continue;
        }
        if (!send_one(m, m->self_ah, m->rx[r].qp->qp_num, fence, why, n)) {
            return false;
        }
        switch (take(m, r, WAIT_S, &wc, why, n)) {
        case -1:
            return false;
        case 0:
            snprintf(why, n, "receiver %d: the unicast datagram after the group's never came", r);
            return false;
        }
        if (!check_copy(m, r, &wc, fence, &m->self.raw[12], why, n)) {
            if (wc.wr_id < RECVS_POSTED &&
                m->rx[r].buf[wc.wr_id * SLOT + GRH_LEN] == pattern(seed, 0)) {
                snprintf(why, n, "receiver %d is not attached but got the group's datagram", r);
            }
            return false;
        }
    }
    for (int r = 0; r < RECEIVERS; r++) {
        int got = take(m, r, ABSENT_WAIT_S, &wc, why, n);

        if (got < 0) {
            return false;
        }
        if (got) {
            snprintf(why, n, "receiver %d got a second completion (wr_id %lu, byte_len %u)", r,
                     (unsigned long)wc.wr_id, wc.byte_len);
            return false;
        }
    }
    /* Every receive taken is posted again, so no round runs short. */
    for (int r = 0; r < RECEIVERS; r++) {
        int err = top_up_recvs(m, &m->rx[r]);

        if (err) {
            snprintf(why, n, "ibv_post_recv: %s", strerror(err));
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int receiver;             /* whose membership changes before the datagram */
        bool attach;
    } rounds[] = {
        { "two-members", -1, true },  /* both attached in set-up order: create, modify */
        { "one-member", 0, false },   /* modify */
        { "no-member", 1, false },    /* destroy */
        { "member-again", 0, true },  /* create */
    };
    struct mcast m = { 0 };
    unsigned ok = 0, failed = 0;
    char why[200];

    if (argc != 3) {
        fprintf(stderr, "usage: rdma-mcast DEVICE GID_INDEX\n");
        return 2;
    }
    setup(&m, argv[1], atoi(argv[2]));
    for (unsigned i = 0; i < sizeof(rounds) / sizeof(rounds[0]); i++) {
        bool pass = true;

        why[0] = 0;
        if (rounds[i].receiver < 0) {
            for (int r = 0; r < RECEIVERS && pass; r++) {
                pass = member(&m, r, true, why, sizeof(why));
            }
        } else {
            pass = member(&m, rounds[i].receiver, rounds[i].attach, why, sizeof(why));
        }
        pass = pass && round_trip(&m, i + 1, why, sizeof(why));
        if (pass) {
            printf("ok %s\n", rounds[i].name);
            ok++;
        } else {
            printf("FAIL %s: %s\n", rounds[i].name, why);
            failed++;
        }
        fflush(stdout);
    }
    for (int r = 0; r < RECEIVERS; r++) {
        if (m.attached[r] && !member(&m, r, false, why, sizeof(why))) {
            printf("FAIL cleanup: %s\n", why);
            failed++;
        }
    }
    printf("rdma-mcast: %u ok, %u failed\n", ok, failed);
    return failed ? 1 : 0;
}
