/* Helpers shared by the guest's verbs programs. */
#ifndef GUEST_UTIL_H
#define GUEST_UTIL_H

#include <infiniband/verbs.h>

/* CLOCK_MONOTONIC in seconds. */
double now(void);

/* Prints "FAIL setup: " and the message, and exits 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Opens RDMA device @dev and queries its port 1 (*@pa) and that port's GID @gid_index (*@gid);
 * dies unless the GID is set and the port is active within 30 s. */
struct ibv_context *open_port(const char *dev, int gid_index, union ibv_gid *gid,
                              struct ibv_port_attr *pa);

/* Where an RC QP connects to and how it retries. */
struct rc_path {
    enum ibv_mtu mtu;
    union ibv_gid dgid;
    int sgid_index;
    uint32_t dest_qpn, rq_psn, sq_psn;
    unsigned int access;          /* IBV_ACCESS_REMOTE_* the peer gets */
    uint8_t min_rnr_timer, timeout, retry_cnt, rnr_retry;
};

/* INIT -> RTR -> RTS along @p. 0, or the errno of the first refused step, which *@step names
 * ("INIT", "RTR" or "RTS"). */
int rc_to_rts(struct ibv_qp *qp, const struct rc_path *p, const char **step);

/* A UD QP of port 1 with @qkey through INIT -> RTR -> RTS, its SQ starting at @sq_psn. 0, or
 * the errno of the first refused step, which *@step names. */
int ud_to_rts(struct ibv_qp *qp, uint32_t qkey, uint32_t sq_psn, const char **step);

#endif
