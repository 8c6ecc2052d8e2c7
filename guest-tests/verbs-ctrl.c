/*
 * verbs-ctrl: drives the control-plane verbs on one RDMA device and checks each succeeds:
 * PD, MRs (4 KiB and 1 MiB, so a PBL is needed), a memory window, CQs, an RC QP taken
 * RESET->INIT->RTR->RTS toward itself, a UD QP, an address handle for its own RoCE v2 GID,
 * then tears everything down. No data moves: this is the device's object model under the
 * real driver and rdma-core, not the transport.
 *
 *   verbs-ctrl DEVICE GID_INDEX
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static int failures;

#define CHECK(what, ok)                                                       \
    do {                                                                      \
        if (ok) {                                                             \
            printf("ok   %s\n", what);                                        \
        } else {                                                              \
            printf("FAIL %s: %s\n", what, strerror(errno));                   \
            failures++;                                                       \
        }                                                                     \
    } while (0)

int main(int argc, char **argv)
{
    struct ibv_device **list;
    struct ibv_context *ctx = NULL;
    struct ibv_pd *pd;
    struct ibv_mr *small, *big;
    struct ibv_mw *mw;
    struct ibv_cq *cq;
    struct ibv_qp *rc, *ud;
    struct ibv_ah *ah;
    union ibv_gid gid;
    int gid_index, n;
    void *buf_small, *buf_big;

    if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "no-mw"))) {
        fprintf(stderr, "usage: verbs-ctrl DEVICE GID_INDEX [no-mw]\n"
                        "  no-mw: the driver must refuse memory windows (EOPNOTSUPP)\n");
        return 2;
    }
    gid_index = atoi(argv[2]);
    list = ibv_get_device_list(&n);
    for (int i = 0; list && i < n; i++) {
        if (!strcmp(ibv_get_device_name(list[i]), argv[1])) {
            ctx = ibv_open_device(list[i]);
        }
    }
    if (!ctx) {
        printf("FAIL open %s\n", argv[1]);
        return 1;
    }
    CHECK("query gid", ibv_query_gid(ctx, 1, gid_index, &gid) == 0);
    CHECK("alloc pd", (pd = ibv_alloc_pd(ctx)) != NULL);
    buf_small = aligned_alloc(4096, 4096);
    buf_big = aligned_alloc(4096, 1 << 20);
    memset(buf_big, 0x5a, 1 << 20);
    CHECK("reg mr 4 KiB", (small = ibv_reg_mr(pd, buf_small, 4096,
                                               IBV_ACCESS_LOCAL_WRITE)) != NULL);
    CHECK("reg mr 1 MiB remote write/read", (big = ibv_reg_mr(pd, buf_big, 1 << 20,
                                               IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                               IBV_ACCESS_REMOTE_READ | IBV_ACCESS_MW_BIND)) != NULL);
    if (argc == 4) {
        CHECK("alloc mw type 1 refused (EOPNOTSUPP)",
              !(mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1)) && errno == EOPNOTSUPP);
    } else {
        CHECK("alloc mw type 1", (mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1)) != NULL);
    }
    CHECK("create cq", (cq = ibv_create_cq(ctx, 256, NULL, NULL, 0)) != NULL);
    if (!pd || !cq) {
        return 1;
    }
    {
        struct ibv_qp_init_attr ia = {
            .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
            .cap = { .max_send_wr = 64, .max_recv_wr = 64, .max_send_sge = 2, .max_recv_sge = 2,
                     .max_inline_data = 64 },
        };
        struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
                                 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
                                                    IBV_ACCESS_REMOTE_READ };

        CHECK("create rc qp", (rc = ibv_create_qp(pd, &ia)) != NULL);
        if (rc) {
            CHECK("rc qp -> INIT", ibv_modify_qp(rc, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
                                                  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0);
            memset(&a, 0, sizeof(a));
            a.qp_state = IBV_QPS_RTR;
            a.path_mtu = IBV_MTU_1024;
            a.dest_qp_num = rc->qp_num;
            a.rq_psn = 1;
            a.max_dest_rd_atomic = 1;
            a.min_rnr_timer = 12;
            a.ah_attr.is_global = 1;
            a.ah_attr.grh.dgid = gid;
            a.ah_attr.grh.sgid_index = gid_index;
            a.ah_attr.grh.hop_limit = 64;
            a.ah_attr.port_num = 1;
            CHECK("rc qp -> RTR (to itself)",
                  ibv_modify_qp(rc, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                                IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                                IBV_QP_MIN_RNR_TIMER) == 0);
            memset(&a, 0, sizeof(a));
            a.qp_state = IBV_QPS_RTS;
            a.timeout = 14;
            a.retry_cnt = 7;
            a.rnr_retry = 7;
            a.sq_psn = 1;
            a.max_rd_atomic = 1;
            CHECK("rc qp -> RTS",
                  ibv_modify_qp(rc, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC) == 0);
        }
        ia.qp_type = IBV_QPT_UD;
        CHECK("create ud qp", (ud = ibv_create_qp(pd, &ia)) != NULL);
    }
    {
        struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
                                  .grh = { .dgid = gid, .sgid_index = gid_index, .hop_limit = 64 } };

        CHECK("create ah (own gid)", (ah = ibv_create_ah(pd, &aa)) != NULL);
        if (ah) {
            CHECK("destroy ah", ibv_destroy_ah(ah) == 0);
        }
    }
    if (ud) {
        CHECK("destroy ud qp", ibv_destroy_qp(ud) == 0);
    }
    if (rc) {
        CHECK("destroy rc qp", ibv_destroy_qp(rc) == 0);
    }
    CHECK("destroy cq", ibv_destroy_cq(cq) == 0);
    if (mw) {
        CHECK("dealloc mw", ibv_dealloc_mw(mw) == 0);
    }
    if (big) {
        CHECK("dereg mr 1 MiB", ibv_dereg_mr(big) == 0);
    }
    if (small) {
        CHECK("dereg mr 4 KiB", ibv_dereg_mr(small) == 0);
    }
    CHECK("dealloc pd", ibv_dealloc_pd(pd) == 0);
    ibv_close_device(ctx);
    ibv_free_device_list(list);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "OK", failures);
    return failures ? 1 : 0;
}
