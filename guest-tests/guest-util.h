/* Helpers shared by the guest's verbs programs (rdma-verify, rdma-stream). */
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

#endif
