/* test_fw_sched.c - AQ handlers of fw/sched.c: good commands, and malformed ones answered with the
 * firmware's error codes. The good sequences are the ones ice 6.1 sends (ice_sched.c,
 * ice_common.c, ice_idc.c, ice_dcb.c). */
#include <check.h>
#include "lan_util.h"
#include "emu/fw/fw.h"
#include "emu/fw/sched.h"
#include "emu/core/le.h"

/* ---- layouts (ice_adminq_cmd.h) ---- */
#define ELEMD_SIZE      24
#define TYPE_ROOT       1
#define TYPE_TC         2
#define TYPE_SE         3
#define TYPE_ENTRY      4
#define TYPE_LEAF       5
#define VALID_GCE       0x07    /* GENERIC | CIR | EIR */
#define VALID_SHARED    0x08
#define TOPO_BUF        4096
#define QRES_SIZE       320
#define DIS_FLUSH       0x08
#define DIS_TIMEOUT     (5 << 10)
#define QSET_BIT        0x8000

typedef struct Elem {
    uint32_t parent, teid;
    uint8_t type, valid, generic, flags;
    uint16_t cir_prof, cir_bw, eir_prof, eir_bw, srl;
} Elem;

static void elem_decode(const uint8_t *p, Elem *e)
{
    e->parent = ld32(p);
    e->teid = ld32(p + 4);
    e->type = p[8];
    e->valid = p[9];
    e->generic = p[10];
    e->flags = p[11];
    e->cir_prof = ld16(p + 12);
    e->cir_bw = ld16(p + 14);
    e->eir_prof = ld16(p + 16);
    e->eir_bw = ld16(p + 18);
    e->srl = ld16(p + 20);
}

static uint16_t send(uint16_t opc, uint16_t flags, uint8_t *params, void *buf, uint16_t len,
                     AqtResp *r)
{
    return aqt_send(h, d, opc, flags, params, buf, len, r);
}

/* 0x0404 for one TEID (ice_sched_query_elem). */
static uint16_t query(uint32_t teid, Elem *e)
{
    uint8_t p[16] = { 0 }, buf[ELEMD_SIZE] = { 0 };
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    st32(buf + 4, teid);
    rc = send(AQC_GET_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r);
    if (rc == AQ_RC_OK) {
        ck_assert_uint_eq(ld16(r.params + 2), 1);
        if (e) {
            elem_decode(buf, e);
        }
    }
    return rc;
}

/* 0x0401, one group of @n SE_GENERIC nodes under @parent; TEIDs into @teids. */
static uint16_t add_elems(uint32_t parent, unsigned n, uint32_t *teids)
{
    uint8_t p[16] = { 0 }, buf[8 + 16 * ELEMD_SIZE];
    AqtResp r;
    uint16_t rc;

    ck_assert_uint_le(n, 16);
    memset(buf, 0, sizeof(buf));
    st16(p, 1);
    st32(buf, parent);
    st16(buf + 4, n);
    for (unsigned i = 0; i < n; i++) {
        st32(buf + 8 + i * ELEMD_SIZE, parent);
        lant_elem_info_dflt(buf + 8 + i * ELEMD_SIZE + 8);
    }
    rc = send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 8 + n * ELEMD_SIZE, &r);
    ck_assert_uint_eq(ld16(r.params + 2), rc == AQ_RC_OK ? 1 : 0);
    for (unsigned i = 0; teids && i < n; i++) {
        teids[i] = ld32(buf + 8 + i * ELEMD_SIZE + 4);
    }
    return rc;
}

static uint32_t add1(uint32_t parent)
{
    uint32_t teid;
    Elem e;

    ck_assert_uint_eq(add_elems(parent, 1, &teid), AQ_RC_OK);
    /* ice_sched_add_node queries each new node. */
    ck_assert_uint_eq(query(teid, &e), AQ_RC_OK);
    ck_assert_uint_eq(e.parent, parent);
    ck_assert_uint_eq(e.type, TYPE_SE);
    return teid;
}

/* 0x040F, one group (ice_sched_remove_elems). */
static uint16_t delete_elems(uint32_t parent, unsigned n, const uint32_t *teids)
{
    uint8_t p[16] = { 0 }, buf[8 + 4 * 16] = { 0 };
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    st32(buf, parent);
    st16(buf + 4, n);
    for (unsigned i = 0; i < n; i++) {
        st32(buf + 8 + i * 4, teids[i]);
    }
    rc = send(AQC_DELETE_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 8 + n * 4, &r);
    ck_assert_uint_eq(ld16(r.params + 2), rc == AQ_RC_OK ? 1 : 0);
    return rc;
}

static uint16_t delete1(uint32_t parent, uint32_t teid)
{
    return delete_elems(parent, 1, &teid);
}

/* 0x0408, one group of one TEID (ice_sched_move_nodes). */
static uint16_t move1(uint32_t src, uint32_t dest, uint32_t teid)
{
    uint8_t p[16] = { 0 }, buf[16] = { 0 };

    st16(p, 1);
    st32(buf, src);
    st32(buf + 4, dest);
    st16(buf + 8, 1);
    st32(buf + 12, teid);
    return send(AQC_MOVE_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), NULL);
}

static uint16_t suspend_resume(uint16_t opc, uint32_t teid)
{
    uint8_t p[16] = { 0 }, buf[4];
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    st32(buf, teid);
    rc = send(opc, AQ_FLAG_RD, p, buf, sizeof(buf), &r);
    if (rc == AQ_RC_OK) {
        ck_assert_uint_eq(ld16(r.params + 2), 1);
    }
    return rc;
}

/* 0x0C30 as ice_vsi_cfg_txq / ice_ena_vsi_txq, with a context of bytes counting up from
 * @ctx_seed. */
static uint16_t add_txq(uint32_t parent, uint16_t txq_id, uint8_t ctx_seed, uint32_t *teid)
{
    uint8_t ctx[FW_SCHED_TXQ_CTX_SIZE];

    for (unsigned i = 0; i < sizeof(ctx); i++) {
        ctx[i] = ctx_seed + i;
    }
    return lant_add_txq(parent, txq_id, ctx, teid);
}

/* 0x0C31 as ice_aq_dis_lan_txq: one group, one q_id, FLUSH_PIPE, timeout 5. */
static uint16_t dis_txq(uint32_t parent, uint16_t q_id)
{
    uint8_t p[16] = { 0 }, buf[8] = { 0 };

    p[0] = DIS_FLUSH;
    p[1] = 1;
    st16(p + 2, DIS_TIMEOUT);
    st32(buf, parent);
    buf[4] = 1;
    st16(buf + 6, q_id);
    return send(AQC_DIS_TXQS, AQ_FLAG_RD, p, buf, sizeof(buf), NULL);
}

/* 0x0C33 as ice_ena_vsi_rdma_qset: one group, one qset. */
static uint16_t add_qset(uint32_t parent, uint16_t qset_id, uint32_t *teid)
{
    uint8_t p[16] = { 0 }, buf[8 + 24] = { 0 };
    uint16_t rc;

    p[0] = 1;
    st32(buf, parent);
    st16(buf + 4, 1);
    st16(buf + 8, qset_id);
    lant_elem_info_dflt(buf + 8 + 8);
    buf[8 + 8] = 0;
    rc = send(AQC_ADD_RDMA_QSET, AQ_FLAG_RD, p, buf, sizeof(buf), NULL);
    if (teid) {
        *teid = ld32(buf + 8 + 4);
    }
    return rc;
}

/* 0x0410 as ice_sched_add_rl_profile; returns rc, the id in *id. */
static uint16_t add_profile(uint8_t level, uint8_t type, uint16_t *id)
{
    uint8_t p[16] = { 0 }, buf[12] = { 0 };
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    buf[0] = level;
    buf[1] = type;
    st16(buf + 4, 15 * 1024 / 64);
    st16(buf + 6, 2000);
    st16(buf + 8, 0x40);
    st16(buf + 10, 3);
    rc = send(AQC_ADD_RL_PROFILES, AQ_FLAG_RD, p, buf, sizeof(buf), &r);
    ck_assert_uint_eq(ld16(r.params + 2), rc == AQ_RC_OK ? 1 : 0);
    if (id) {
        *id = ld16(buf + 2);
    }
    return rc;
}

static uint16_t remove_profile(uint8_t level, uint8_t type, uint16_t id)
{
    uint8_t p[16] = { 0 }, buf[12] = { 0 };
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    buf[0] = level;
    buf[1] = type;
    st16(buf + 2, id);
    rc = send(AQC_REMOVE_RL_PROFILES, AQ_FLAG_RD, p, buf, sizeof(buf), &r);
    ck_assert_uint_eq(ld16(r.params + 2), rc == AQ_RC_OK ? 1 : 0);
    return rc;
}

/* 0x0403 of one element as ice_sched_update_elem (parent, type, flags zeroed). */
static uint16_t cfg1(uint32_t teid, uint8_t valid, uint16_t cir_prof, uint16_t cir_bw,
                     uint16_t eir_prof, uint16_t eir_bw, uint16_t srl)
{
    uint8_t p[16] = { 0 }, buf[ELEMD_SIZE] = { 0 };
    AqtResp r;
    uint16_t rc;

    st16(p, 1);
    st32(buf + 4, teid);
    buf[9] = valid;
    st16(buf + 12, cir_prof);
    st16(buf + 14, cir_bw);
    st16(buf + 16, eir_prof);
    st16(buf + 18, eir_bw);
    st16(buf + 20, srl);
    rc = send(AQC_CFG_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r);
    ck_assert_uint_eq(ld16(r.params + 2), rc == AQ_RC_OK ? 1 : 0);
    return rc;
}

/* ---- the probe: ice_sched_query_res_alloc + ice_sched_init_port ---- */

typedef struct Topo {
    unsigned num;
    Elem e[9];
} Topo;

static void get_topo(Topo *t)
{
    static uint8_t buf[TOPO_BUF];
    AqtResp r;

    memset(buf, 0xa5, sizeof(buf));
    ck_assert_uint_eq(send(AQC_GET_DFLT_TOPO, 0, NULL, buf, sizeof(buf), &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[1], 1);
    t->num = ld16(buf + 4);
    ck_assert_uint_ge(t->num, 1);
    ck_assert_uint_le(t->num, 9);
    for (unsigned j = 0; j < t->num; j++) {
        elem_decode(buf + 8 + j * ELEMD_SIZE, &t->e[j]);
    }
}

/* ---- tests ---- */

START_TEST(query_sched_res_reports_nine_layers_of_eight)
{
    uint8_t res[QRES_SIZE];
    AqtResp r;

    memset(res, 0xff, sizeof(res));
    ck_assert_uint_eq(send(AQC_QUERY_SCHED_RES, 0, NULL, res, sizeof(res), &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, QRES_SIZE);
    ck_assert_uint_eq(ld16(res + 0), 9);          /* phys_levels */
    ck_assert_uint_eq(ld16(res + 2), 9);          /* logical_levels */
    ck_assert_uint_eq(res[4], 0);                 /* no flattened layers */
    for (unsigned k = 0; k < 9; k++) {
        const uint8_t *l = res + 32 + k * 32;

        ck_assert_uint_eq(l[0], k);
        ck_assert_uint_ge(ld16(l + 4), 1);        /* max_pf_nodes */
        if (k >= 1) {
            /* max_children[k - 1]; root's must hold all 8 TC nodes */
            ck_assert_uint_eq(ld16(l + 10), 8);
            ck_assert_uint_gt(ld16(l + 12), 0);   /* CIR profiles */
            ck_assert_uint_gt(ld16(l + 14), 0);   /* EIR profiles */
        }
    }
    ck_assert_uint_ge(ld16(res + 32 + 1 * 32 + 4), 8);  /* 8 TC nodes */
}
END_TEST

START_TEST(query_sched_res_short_buffer_is_einval)
{
    uint8_t res[64];

    ck_assert_uint_eq(send(AQC_QUERY_SCHED_RES, 0, NULL, res, sizeof(res), NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(dflt_topo_is_root_tc0_entry_point)
{
    Topo t;

    get_topo(&t);
    ck_assert_uint_eq(t.num, 3);
    ck_assert_uint_eq(t.e[0].type, TYPE_ROOT);
    ck_assert_uint_eq(t.e[0].parent, FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(t.e[1].type, TYPE_TC);
    ck_assert_uint_eq(t.e[1].parent, t.e[0].teid);
    ck_assert_uint_eq(t.e[2].type, TYPE_ENTRY);
    ck_assert_uint_eq(t.e[2].parent, t.e[1].teid);
    for (unsigned j = 0; j < 3; j++) {
        ck_assert_uint_ne(t.e[j].teid, 0);
        ck_assert_uint_ne(t.e[j].teid, FW_SCHED_INVALID_TEID);
    }
    ck_assert_uint_eq(t.e[0].teid, fw_sched_root_teid(d->sched));
    ck_assert_uint_eq(t.e[1].teid, fw_sched_tc_teid(d->sched, 0));
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 1), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(fw_sched_tc_bitmap(d->sched), 0x01);
}
END_TEST

START_TEST(dflt_topo_bad_port_or_short_buffer_is_einval)
{
    uint8_t p[16] = { 1 }, buf[TOPO_BUF];

    ck_assert_uint_eq(send(AQC_GET_DFLT_TOPO, 0, p, buf, sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_port"), 1);
    ck_assert_uint_eq(send(AQC_GET_DFLT_TOPO, 0, NULL, buf, 100, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(entry_point_deleted_is_gone)
{
    Topo t;
    LantBranch v;

    lant_sched_branch(&v);
    get_topo(&t);
    ck_assert_uint_eq(t.num, 2);                  /* root, TC0 */
    ck_assert_uint_eq(query(v.root, NULL), AQ_RC_OK);
    ck_assert_uint_eq(query(v.tc0, NULL), AQ_RC_OK);
}
END_TEST

START_TEST(vsi_setup_and_lan_queues)
{
    uint32_t q[4];
    FwSchedTxq txq;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    for (unsigned l = 2; l <= 7; l++) {
        ck_assert_uint_eq(query(v.l[l], &e), AQ_RC_OK);
        ck_assert_uint_eq(e.parent, v.l[l - 1]);
        ck_assert_uint_eq(e.valid, VALID_GCE);
        ck_assert_uint_eq(e.cir_bw, 4);
        ck_assert_uint_eq(e.eir_bw, 4);
    }
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(add_txq(v.l[7], 10 + i, i * 0x20, &q[i]), AQ_RC_OK);
        ck_assert_uint_ne(q[i], 0);
        ck_assert_uint_ne(q[i], FW_SCHED_INVALID_TEID);
        ck_assert_uint_eq(query(q[i], &e), AQ_RC_OK);
        ck_assert_uint_eq(e.type, TYPE_LEAF);
        ck_assert_uint_eq(e.parent, v.l[7]);
    }
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 4);
    ck_assert(fw_sched_get_txq(d->sched, 12, &txq));
    ck_assert_uint_eq(txq.teid, q[2]);
    ck_assert_uint_eq(txq.parent_teid, v.l[7]);
    ck_assert_uint_eq(txq.tc, 0);
    ck_assert(txq.tc_enabled);
    ck_assert(!txq.suspended);
    for (unsigned i = 0; i < 22; i++) {
        ck_assert_uint_eq(txq.ctx[i], 0x40 + i);
    }
    ck_assert(!fw_sched_get_txq(d->sched, 14, &txq));
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_txq_add"), 4);

    /* ice_vsi_stop_tx_ring: 0x0C31 per ring; the leaf goes with it. */
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(dis_txq(v.l[7], 10 + i), AQ_RC_OK);
        ck_assert_uint_eq(query(q[i], NULL), AQ_RC_ENOENT);
    }
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 0);
    ck_assert(!fw_sched_get_txq(d->sched, 12, &txq));
    /* Re-open: the same PF queues come back. */
    ck_assert_uint_eq(add_txq(v.l[7], 10, 0, &q[0]), AQ_RC_OK);
    /* ice_vsi_release: ice_free_sched_node bottom-up once the queues are gone. */
    ck_assert_uint_eq(dis_txq(v.l[7], 10), AQ_RC_OK);
    for (unsigned l = 7; l >= 2; l--) {
        ck_assert_uint_eq(delete1(v.l[l - 1], v.l[l]), AQ_RC_OK);
    }
    ck_assert_uint_eq(query(v.l[2], NULL), AQ_RC_ENOENT);
}
END_TEST

START_TEST(add_elems_fills_every_teid_and_counts_groups)
{
    uint8_t p[16] = { 0 }, buf[2 * 8 + 5 * ELEMD_SIZE] = { 0 };
    uint32_t t[3], seen[5];
    AqtResp r;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_elems(v.l[4], 3, t), AQ_RC_OK);
    ck_assert_uint_ne(t[0], t[1]);
    ck_assert_uint_ne(t[1], t[2]);
    for (unsigned i = 0; i < 3; i++) {
        Elem e;

        ck_assert_uint_eq(query(t[i], &e), AQ_RC_OK);
        ck_assert_uint_eq(e.parent, v.l[4]);
    }
    /* Two groups in one command: 2 under L5, 3 under L6. */
    st16(p, 2);
    st32(buf, v.l[5]);
    st16(buf + 4, 2);
    for (unsigned i = 0; i < 2; i++) {
        lant_elem_info_dflt(buf + 8 + i * ELEMD_SIZE + 8);
    }
    st32(buf + 8 + 2 * ELEMD_SIZE, v.l[6]);
    st16(buf + 8 + 2 * ELEMD_SIZE + 4, 3);
    for (unsigned i = 0; i < 3; i++) {
        lant_elem_info_dflt(buf + 16 + (2 + i) * ELEMD_SIZE + 8);
    }
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2), 2);
    for (unsigned i = 0; i < 5; i++) {
        size_t off = (i < 2 ? 8 : 16) + i * ELEMD_SIZE;
        Elem e;

        seen[i] = ld32(buf + off + 4);
        ck_assert_uint_eq(query(seen[i], &e), AQ_RC_OK);
        ck_assert_uint_eq(e.parent, i < 2 ? v.l[5] : v.l[6]);
        ck_assert_uint_eq(ld32(buf + off), e.parent);
        ck_assert_uint_eq(e.type, TYPE_SE);
    }
}
END_TEST

START_TEST(add_elems_malformed)
{
    uint8_t p[16] = { 0 }, buf[8 + 3 * ELEMD_SIZE] = { 0 };
    uint32_t t[8], q;
    AqtResp r;
    LantBranch v;

    lant_sched_branch(&v);
    /* 0 groups */
    st32(buf, v.l[3]);
    st16(buf + 4, 1);
    lant_elem_info_dflt(buf + 16);
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    /* num_elems 3 in a buffer holding 1 */
    st16(p, 1);
    st16(buf + 4, 3);
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    ck_assert_uint_ge(fake_host_trace_count(h, "err_fw_sched_short_buffer"), 1);
    /* num_elems 0 */
    st16(buf + 4, 0);
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    /* two groups announced, one present */
    st16(p, 2);
    st16(buf + 4, 1);
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    ck_assert_uint_eq(ld16(r.params + 2), 1);     /* the first one went in */
    /* a buffer below one group */
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 16, &r), AQ_RC_EINVAL);
    /* without RD the engine refuses */
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, 0, p, buf, 32, &r), AQ_RC_EINVAL);

    /* unknown parent, the root (TC layer is the firmware's), a queue group (leaf layer) */
    ck_assert_uint_eq(add_elems(0x7777, 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_parent"), 1);
    ck_assert_uint_eq(add_elems(v.root, 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(add_elems(v.l[7], 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(add_txq(v.l[7], 0, 0, &q), AQ_RC_OK);
    ck_assert_uint_eq(add_elems(q, 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_ge(fake_host_trace_count(h, "err_fw_sched_bad_layer"), 3);

    /* a full parent: L4 has L5 */
    ck_assert_uint_eq(add_elems(v.l[4], 7, t), AQ_RC_OK);
    ck_assert_uint_eq(add_elems(v.l[4], 1, NULL), AQ_RC_ENOSPC);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_parent_full"), 1);
    ck_assert_uint_eq(add_elems(v.l[5], 8, NULL), AQ_RC_ENOSPC);  /* L5 has L6 */
    ck_assert_uint_eq(add_elems(v.l[5], 7, t), AQ_RC_OK);

    /* an element type that isn't the driver's to add */
    memset(buf, 0, sizeof(buf));
    st16(p, 1);
    st32(buf, v.l[2]);
    st16(buf + 4, 1);
    lant_elem_info_dflt(buf + 16);
    buf[16] = TYPE_LEAF;
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_type"), 1);
    /* an RL profile that doesn't exist */
    lant_elem_info_dflt(buf + 16);
    st16(buf + 16 + 4, 77);
    ck_assert_uint_eq(send(AQC_ADD_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 32, &r), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_profile"), 1);
    /* nothing of the refused ones was added: L2 still takes 7 more */
    ck_assert_uint_eq(add_elems(v.l[2], 7, NULL), AQ_RC_OK);
}
END_TEST

START_TEST(get_elems_several_and_malformed)
{
    uint8_t p[16] = { 0 }, buf[3 * ELEMD_SIZE] = { 0 };
    AqtResp r;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    st16(p, 3);
    st32(buf + 4, v.root);
    st32(buf + ELEMD_SIZE + 4, v.tc0);
    st32(buf + 2 * ELEMD_SIZE + 4, v.l[5]);
    ck_assert_uint_eq(send(AQC_GET_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2), 3);
    elem_decode(buf, &e);
    ck_assert_uint_eq(e.type, TYPE_ROOT);
    ck_assert_uint_eq(e.parent, FW_SCHED_INVALID_TEID);
    elem_decode(buf + ELEMD_SIZE, &e);
    ck_assert_uint_eq(e.type, TYPE_TC);
    ck_assert_uint_eq(e.parent, v.root);
    elem_decode(buf + 2 * ELEMD_SIZE, &e);
    ck_assert_uint_eq(e.parent, v.l[4]);

    ck_assert_uint_eq(query(0x12345, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(query(FW_SCHED_INVALID_TEID, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_unknown_teid"), 2);
    st16(p, 4);                                   /* 4 elements in 72 bytes */
    ck_assert_uint_eq(send(AQC_GET_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r),
                      AQ_RC_EINVAL);
    st16(p, 0);
    ck_assert_uint_eq(send(AQC_GET_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(cfg_elems_updates_the_valid_sections)
{
    uint8_t p[16] = { 0 }, buf[2 * ELEMD_SIZE] = { 0 };
    AqtResp r;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    /* ice_sched_cfg_node_bw_alloc: CIR weight of the VSI node */
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, 0, 50, 0, 4, 0), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.cir_bw, 50);
    ck_assert_uint_eq(e.eir_bw, 4);
    ck_assert_uint_eq(e.type, TYPE_SE);           /* reserved in the request: unchanged */
    ck_assert_uint_eq(e.parent, v.l[4]);
    /* two at once */
    st16(p, 2);
    st32(buf + 4, v.l[6]);
    buf[9] = 0x02;                                /* CIR only */
    st16(buf + 14, 9);
    st32(buf + ELEMD_SIZE + 4, v.l[7]);
    buf[ELEMD_SIZE + 9] = VALID_GCE;
    buf[ELEMD_SIZE + 10] = 0x02;                  /* priority 1 */
    ck_assert_uint_eq(send(AQC_CFG_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2), 2);
    ck_assert_uint_eq(query(v.l[6], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.cir_bw, 9);
    ck_assert_uint_eq(e.eir_bw, 4);               /* not in the request: kept */
    ck_assert_uint_eq(query(v.l[7], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.generic, 0x02);

    /* unknown TEID: nothing changes */
    st32(buf + 4, v.l[6]);
    st16(buf + 14, 33);
    st32(buf + ELEMD_SIZE + 4, 0x4242);
    ck_assert_uint_eq(send(AQC_CFG_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r),
                      AQ_RC_ENOENT);
    ck_assert_uint_eq(query(v.l[6], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.cir_bw, 9);
    /* count beyond the buffer, unknown profile */
    st16(p, 3);
    ck_assert_uint_eq(send(AQC_CFG_SCHED_ELEMS, AQ_FLAG_RD, p, buf, sizeof(buf), &r),
                      AQ_RC_EINVAL);
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, 0, 4, 12, 4, 0), AQ_RC_EINVAL);
    ck_assert_uint_eq(cfg1(v.l[5], 0x03 | VALID_SHARED, 0, 4, 0, 0, 5), AQ_RC_EINVAL);
}
END_TEST

START_TEST(delete_refuses_nodes_with_children_and_fw_nodes)
{
    uint32_t q;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(delete1(v.l[4], v.l[5]), AQ_RC_EBUSY);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_has_children"), 1);
    ck_assert_uint_eq(query(v.l[5], NULL), AQ_RC_OK);
    ck_assert_uint_eq(delete1(v.root, v.tc0), AQ_RC_EINVAL);      /* TC */
    ck_assert_uint_eq(delete1(v.l[5], v.l[7]), AQ_RC_EINVAL);     /* not its child */
    ck_assert_uint_eq(delete1(0x999, v.l[7]), AQ_RC_EINVAL);      /* unknown parent */
    ck_assert_uint_eq(delete1(v.l[6], 0x999), AQ_RC_ENOENT);
    /* queue leaves go with 0x0C31, not 0x040F; their qgroup is busy meanwhile */
    ck_assert_uint_eq(add_txq(v.l[7], 3, 0, &q), AQ_RC_OK);
    ck_assert_uint_eq(delete1(v.l[7], q), AQ_RC_EINVAL);
    ck_assert_uint_eq(delete1(v.l[6], v.l[7]), AQ_RC_EBUSY);
    ck_assert_uint_eq(dis_txq(v.l[7], 3), AQ_RC_OK);
    ck_assert_uint_eq(delete1(v.l[6], v.l[7]), AQ_RC_OK);
}
END_TEST

START_TEST(delete_several_is_all_or_nothing)
{
    uint32_t t[4];
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_elems(v.l[6], 3, t), AQ_RC_OK);
    t[3] = 0xdead;
    ck_assert_uint_eq(delete_elems(v.l[6], 4, t), AQ_RC_ENOENT);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(query(t[i], NULL), AQ_RC_OK);
    }
    ck_assert_uint_eq(delete_elems(v.l[6], 3, t), AQ_RC_OK);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(query(t[i], NULL), AQ_RC_ENOENT);
    }
}
END_TEST

START_TEST(aggregator_move_as_ice_set_agg_vsi)
{
    uint32_t agg, agg_l4, other, q, t[6];
    FwSchedTxq txq;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 0, 0, &q), AQ_RC_OK);
    /* ice_sched_add_agg_cfg: aggregator (L3) under the existing L2; one L4 below it */
    agg = add1(v.l[2]);
    agg_l4 = add1(agg);
    /* ice_sched_move_vsi_to_agg: the VSI node (with its queues) moves under it */
    ck_assert_uint_eq(move1(v.l[4], agg_l4, v.l[5]), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.parent, agg_l4);
    ck_assert(fw_sched_get_txq(d->sched, 0, &txq));
    ck_assert_uint_eq(txq.teid, q);
    ck_assert_uint_eq(delete1(v.l[3], v.l[4]), AQ_RC_OK);        /* old L4 now empty */

    ck_assert_uint_eq(move1(v.l[4], agg_l4, v.l[5]), AQ_RC_EINVAL);   /* old parent gone */
    other = add1(agg);
    ck_assert_uint_eq(move1(other, agg_l4, v.l[5]), AQ_RC_EINVAL);    /* not its child */
    ck_assert_uint_eq(move1(agg_l4, agg, v.l[5]), AQ_RC_EINVAL);      /* layer change */
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_layer"), 1);
    ck_assert_uint_eq(move1(agg_l4, agg_l4, 0x5555), AQ_RC_ENOENT);
    ck_assert_uint_eq(move1(v.root, v.root, v.tc0), AQ_RC_EINVAL);    /* TC nodes stay */
    /* a full destination */
    ck_assert_uint_eq(add_elems(agg, 6, t), AQ_RC_OK);               /* agg: 8 L4s */
    ck_assert_uint_eq(add_elems(t[0], 8, NULL), AQ_RC_OK);
    ck_assert_uint_eq(move1(agg_l4, t[0], v.l[5]), AQ_RC_ENOSPC);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.parent, agg_l4);
    ck_assert_uint_eq(move1(agg_l4, t[1], v.l[5]), AQ_RC_OK);
}
END_TEST

START_TEST(suspend_resume_set_the_flag)
{
    uint8_t p[16] = { 0 }, buf[8];
    FwSchedTxq txq;
    uint32_t q;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 5, 0, &q), AQ_RC_OK);
    ck_assert_uint_eq(suspend_resume(AQC_SUSPEND_SCHED_ELEMS, v.l[5]), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.flags & 1, 1);
    ck_assert(fw_sched_get_txq(d->sched, 5, &txq));
    ck_assert(txq.suspended);
    ck_assert_uint_eq(suspend_resume(AQC_RESUME_SCHED_ELEMS, v.l[5]), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.flags & 1, 0);
    ck_assert(fw_sched_get_txq(d->sched, 5, &txq));
    ck_assert(!txq.suspended);

    ck_assert_uint_eq(suspend_resume(AQC_SUSPEND_SCHED_ELEMS, 0x31337), AQ_RC_ENOENT);
    st16(p, 3);                                   /* 3 TEIDs in 8 bytes */
    st32(buf, v.l[5]);
    st32(buf + 4, v.l[6]);
    ck_assert_uint_eq(send(AQC_SUSPEND_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 8, NULL), AQ_RC_EINVAL);
    st16(p, 2);
    st32(buf + 4, 0x31337);                       /* one unknown: neither is suspended */
    ck_assert_uint_eq(send(AQC_SUSPEND_SCHED_ELEMS, AQ_FLAG_RD, p, buf, 8, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.flags & 1, 0);
}
END_TEST

START_TEST(rl_profiles_bookkeeping)
{
    uint16_t cir, eir, srl, id;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    /* ice_sched_set_node_bw_lmt on the VSI node (layer 5 -> level 6) */
    ck_assert_uint_eq(add_profile(6, 0, &cir), AQ_RC_OK);
    ck_assert_uint_eq(add_profile(6, 1, &eir), AQ_RC_OK);
    ck_assert_uint_ne(cir, 0);
    ck_assert_uint_ne(cir, eir);
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, cir, 4, eir, 4, 0), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.cir_prof, cir);
    ck_assert_uint_eq(e.eir_prof, eir);
    /* a CIR id is no EIR profile */
    ck_assert_uint_eq(cfg1(v.l[6], VALID_GCE, 0, 4, cir, 4, 0), AQ_RC_EINVAL);
    /* shared: EIR off, SRL on */
    ck_assert_uint_eq(add_profile(5, 2, &srl), AQ_RC_OK);
    ck_assert_uint_eq(cfg1(v.l[5], 0x03 | VALID_SHARED, cir, 4, 0, 0, srl), AQ_RC_OK);
    ck_assert_uint_eq(query(v.l[5], &e), AQ_RC_OK);
    ck_assert_uint_eq(e.srl, srl);
    ck_assert_uint_eq(e.valid, 0x03 | VALID_SHARED);
    /* back to default (ice_sched_set_node_bw_dflt) and the profiles go */
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, 0, 4, 0, 4, 0), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(6, 0, cir), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(6, 1, eir), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(5, 2, srl), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(6, 0, cir), AQ_RC_ENOENT);
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, cir, 4, 0, 4, 0), AQ_RC_EINVAL);
    /* removal names the profile as added */
    ck_assert_uint_eq(add_profile(3, 0, &id), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(4, 0, id), AQ_RC_EINVAL);
    ck_assert_uint_eq(remove_profile(3, 0, id), AQ_RC_OK);
    /* removing one still in use is allowed (ice_sched_clear_rl_prof) but traced */
    ck_assert_uint_eq(add_profile(6, 0, &id), AQ_RC_OK);
    ck_assert_uint_eq(cfg1(v.l[5], VALID_GCE, id, 4, 0, 4, 0), AQ_RC_OK);
    ck_assert_uint_eq(remove_profile(6, 0, id), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_rl_in_use"), 1);

    /* bad level, type, a layer without profiles, count vs buffer */
    ck_assert_uint_eq(add_profile(0, 0, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(add_profile(10, 0, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(add_profile(3, 3, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(add_profile(1, 0, NULL), AQ_RC_EINVAL);   /* root */
    ck_assert_uint_eq(add_profile(9, 2, NULL), AQ_RC_EINVAL);   /* SRL on leaves */
    {
        uint8_t p[16] = { 0 }, buf[12] = { 4 };

        st16(p, 2);
        ck_assert_uint_eq(send(AQC_ADD_RL_PROFILES, AQ_FLAG_RD, p, buf, sizeof(buf), NULL),
                          AQ_RC_EINVAL);
    }
}
END_TEST

START_TEST(rl_profiles_are_bounded_per_layer)
{
    unsigned n = 0;
    uint16_t id, last = 0, rc;

    while ((rc = add_profile(8, 1, &id)) == AQ_RC_OK) {
        ck_assert_uint_lt(++n, 1000);
        last = id;
    }
    ck_assert_uint_eq(rc, AQ_RC_ENOSPC);
    ck_assert_uint_gt(n, 0);
    ck_assert_uint_eq(add_profile(8, 0, NULL), AQ_RC_OK);       /* other type: own budget */
    ck_assert_uint_eq(remove_profile(8, 1, last), AQ_RC_OK);
    ck_assert_uint_eq(add_profile(8, 1, NULL), AQ_RC_OK);
}
END_TEST

START_TEST(add_txqs_malformed)
{
    uint8_t p[16] = { 0 }, buf[2 * (8 + 48)] = { 0 };
    uint32_t q;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 7, 0, &q), AQ_RC_OK);
    ck_assert_uint_eq(add_txq(v.l[7], 7, 0, NULL), AQ_RC_EEXIST);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_queue_exists"), 1);
    ck_assert_uint_eq(add_txq(v.l[6], 8, 0, NULL), AQ_RC_EINVAL);     /* not a queue group */
    ck_assert_uint_eq(add_txq(0x4444, 8, 0, NULL), AQ_RC_EINVAL);     /* unknown parent */
    ck_assert_uint_eq(add_txq(v.l[7], FW_NUM_QUEUES, 0, NULL), AQ_RC_EINVAL);
    for (unsigned i = 1; i < 8; i++) {
        ck_assert_uint_eq(add_txq(v.l[7], 100 + i, 0, NULL), AQ_RC_OK);
    }
    ck_assert_uint_eq(add_txq(v.l[7], 200, 0, NULL), AQ_RC_ENOSPC);   /* 8 per group */
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 8);

    /* two groups in one command, the second repeating the first's queue id: none added */
    {
        uint32_t qg = add1(v.l[6]);

        p[0] = 2;
        for (unsigned gi = 0; gi < 2; gi++) {
            uint8_t *g = buf + gi * 56;

            st32(g, qg);
            g[4] = 1;
            st16(g + 8, 50);
            lant_elem_info_dflt(g + 8 + 32);
        }
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, sizeof(buf), NULL),
                          AQ_RC_EEXIST);
        ck_assert(!fw_sched_get_txq(d->sched, 50, &(FwSchedTxq) { 0 }));
        st16(buf + 56 + 8, 51);
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, sizeof(buf), NULL), AQ_RC_OK);
        ck_assert_uint_ne(ld32(buf + 8 + 4), ld32(buf + 56 + 8 + 4));
        ck_assert(fw_sched_get_txq(d->sched, 50, &(FwSchedTxq) { 0 }));
        ck_assert(fw_sched_get_txq(d->sched, 51, &(FwSchedTxq) { 0 }));
        /* 2 groups announced, 1 in the buffer; 0 groups; 2 queues in one queue's space */
        st16(buf + 8, 52);
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, 56, NULL), AQ_RC_EINVAL);
        p[0] = 0;
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, 56, NULL), AQ_RC_EINVAL);
        p[0] = 1;
        buf[4] = 2;
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, 56, NULL), AQ_RC_EINVAL);
        buf[4] = 0;
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, 56, NULL), AQ_RC_EINVAL);
        /* generic section not valid */
        buf[4] = 1;
        buf[8 + 32 + 1] = 0x06;
        ck_assert_uint_eq(send(AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, 56, NULL), AQ_RC_EINVAL);
        ck_assert_uint_eq(fake_host_trace_count(h, "err_fw_sched_bad_elem"), 1);
        ck_assert(!fw_sched_get_txq(d->sched, 52, &(FwSchedTxq) { 0 }));
    }
}
END_TEST

START_TEST(dis_txqs_variants_and_malformed)
{
    uint8_t p[16] = { 0 }, buf[32] = { 0 };
    uint32_t q[3];
    LantBranch v;

    lant_sched_branch(&v);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(add_txq(v.l[7], 20 + i, 0, &q[i]), AQ_RC_OK);
    }
    ck_assert_uint_eq(dis_txq(v.l[7], 99), AQ_RC_ENOENT);              /* not enabled */
    ck_assert_uint_eq(dis_txq(v.l[6], 20), AQ_RC_EINVAL);              /* wrong parent */
    ck_assert_uint_eq(dis_txq(v.l[7], 20 | QSET_BIT), AQ_RC_ENOENT);   /* no such qset */
    /* reset-flow variants without a list (ice_dis_vsi_txq with num_queues 0) */
    p[0] = 2 | DIS_FLUSH;                                              /* VF reset */
    st16(p + 2, DIS_TIMEOUT | 3);
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, NULL, 0, NULL), AQ_RC_OK);
    p[0] = 1 | DIS_FLUSH;                                              /* VM reset */
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 3);
    p[0] = DIS_FLUSH;                                                  /* no reset: needs a list */
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, NULL, 0, NULL), AQ_RC_EINVAL);
    p[1] = 1;                                                          /* entries, no buffer */
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, NULL, 0, NULL), AQ_RC_EINVAL);
    st32(buf, v.l[7]);
    buf[4] = 1;
    st16(buf + 6, 20);
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, buf, 8, NULL), AQ_RC_EINVAL);   /* no RD */
    buf[4] = 3;                                                        /* 3 ids in 8 bytes */
    ck_assert_uint_eq(send(AQC_DIS_TXQS, AQ_FLAG_RD, p, buf, 8, NULL), AQ_RC_EINVAL);
    buf[4] = 0;
    ck_assert_uint_eq(send(AQC_DIS_TXQS, AQ_FLAG_RD, p, buf, 8, NULL), AQ_RC_EINVAL);
    /* a VM-reset with a list, two groups: 2 ids (padded), then 1; one unknown spoils all */
    p[0] = 1 | DIS_FLUSH;
    p[1] = 2;
    memset(buf, 0, sizeof(buf));
    st32(buf, v.l[7]);
    buf[4] = 2;
    st16(buf + 6, 20);
    st16(buf + 8, 21);
    st32(buf + 12, v.l[7]);
    buf[16] = 1;
    st16(buf + 18, 23);
    ck_assert_uint_eq(send(AQC_DIS_TXQS, AQ_FLAG_RD, p, buf, 20, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 3);
    st16(buf + 18, 22);
    ck_assert_uint_eq(send(AQC_DIS_TXQS, AQ_FLAG_RD, p, buf, 20, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 0);
    for (unsigned i = 0; i < 3; i++) {
        ck_assert_uint_eq(query(q[i], NULL), AQ_RC_ENOENT);
    }
    /* PF reset without a list: all LAN queues */
    ck_assert_uint_eq(add_txq(v.l[7], 1, 0, NULL), AQ_RC_OK);
    p[0] = 3 | DIS_FLUSH;
    p[1] = 0;
    ck_assert_uint_eq(send(AQC_DIS_TXQS, 0, p, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 0);
}
END_TEST

START_TEST(rdma_qset_chain_under_the_vsi_node)
{
    uint32_t rl6, rl7, qs, lq;
    FwSchedTxq txq;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 4, 0, &lq), AQ_RC_OK);
    /* ice_cfg_vsi_rdma: RDMA-owned L6/L7 under the same L5 VSI node */
    rl6 = add1(v.l[5]);
    rl7 = add1(rl6);
    /* ice_ena_vsi_rdma_qset */
    ck_assert_uint_eq(add_qset(rl7, 4, &qs), AQ_RC_OK);
    ck_assert_uint_ne(qs, 0);
    ck_assert_uint_ne(qs, lq);
    ck_assert_uint_eq(query(qs, &e), AQ_RC_OK);
    ck_assert_uint_eq(e.type, TYPE_LEAF);
    ck_assert_uint_eq(e.parent, rl7);
    ck_assert_uint_eq(fw_sched_rdma_qset_teid(d->sched, 4), qs);
    ck_assert_uint_eq(fw_sched_rdma_qset_teid(d->sched, 5), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(add_qset(rl7, 4, NULL), AQ_RC_EEXIST);
    ck_assert_uint_eq(add_qset(rl7, 0x8001, NULL), AQ_RC_EINVAL);   /* bit 15 is 0x0C31's */
    ck_assert_uint_eq(add_qset(rl6, 9, NULL), AQ_RC_EINVAL);        /* not a queue group */
    ck_assert_uint_eq(add_qset(0xabc, 9, NULL), AQ_RC_EINVAL);
    /* ice_dis_vsi_rdma_qset: q_id | BIT(15); the LAN queue with the same number stays */
    ck_assert_uint_eq(dis_txq(v.l[7], 4 | QSET_BIT), AQ_RC_EINVAL); /* wrong parent */
    ck_assert_uint_eq(dis_txq(rl7, 4 | QSET_BIT), AQ_RC_OK);
    ck_assert_uint_eq(query(qs, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(fw_sched_rdma_qset_teid(d->sched, 4), FW_SCHED_INVALID_TEID);
    ck_assert(fw_sched_get_txq(d->sched, 4, &txq));
    ck_assert_uint_eq(txq.teid, lq);
    ck_assert_uint_eq(dis_txq(rl7, 4 | QSET_BIT), AQ_RC_ENOENT);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_qset_dis"), 1);
    /* malformed group: num_qsets beyond the buffer */
    {
        uint8_t p[16] = { 1 }, buf[32] = { 0 };

        st32(buf, rl7);
        st16(buf + 4, 2);
        st16(buf + 8, 6);
        lant_elem_info_dflt(buf + 16);
        ck_assert_uint_eq(send(AQC_ADD_RDMA_QSET, AQ_FLAG_RD, p, buf, sizeof(buf), NULL),
                          AQ_RC_EINVAL);
    }
}
END_TEST

START_TEST(dcb_tc_change_keeps_tc_teids_stable)
{
    uint32_t tc1, tc1_vsi[6], q;
    FwSchedTxq txq;
    Elem e;
    LantBranch v;

    lant_sched_branch(&v);
    fw_sched_set_tcs(d->sched, 0x0f);
    ck_assert_uint_eq(fw_sched_tc_bitmap(d->sched), 0x0f);
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 0), v.tc0);
    for (unsigned tc = 1; tc < 4; tc++) {
        uint32_t teid = fw_sched_tc_teid(d->sched, tc);

        ck_assert_uint_ne(teid, FW_SCHED_INVALID_TEID);
        ck_assert_uint_ne(teid, v.tc0);
        /* ice_update_port_tc_tree_cfg queries each new TC node */
        ck_assert_uint_eq(query(teid, &e), AQ_RC_OK);
        ck_assert_uint_eq(e.type, TYPE_TC);
        ck_assert_uint_eq(e.parent, v.root);
    }
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 4), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 8), FW_SCHED_INVALID_TEID);
    /* ice_cfg_vsi_lan: the PF VSI's branch under TC1, a queue on it */
    tc1 = fw_sched_tc_teid(d->sched, 1);
    tc1_vsi[0] = add1(tc1);
    for (unsigned i = 1; i < 6; i++) {
        tc1_vsi[i] = add1(tc1_vsi[i - 1]);
    }
    ck_assert_uint_eq(add_txq(tc1_vsi[5], 30, 0, &q), AQ_RC_OK);
    ck_assert(fw_sched_get_txq(d->sched, 30, &txq));
    ck_assert_uint_eq(txq.tc, 1);
    ck_assert(txq.tc_enabled);
    ck_assert_uint_eq(dis_txq(tc1_vsi[5], 30), AQ_RC_OK);

    /* back to one TC: TC1 is no longer reported, but the driver still holds its nodes and
     * suspends its VSI node (ice_sched_cfg_vsi with enable = false) */
    fw_sched_set_tcs(d->sched, 0x01);
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 1), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(query(tc1, NULL), AQ_RC_OK);
    ck_assert_uint_eq(suspend_resume(AQC_SUSPEND_SCHED_ELEMS, tc1_vsi[3]), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_tcs"), 2);
    /* re-enabled: the same TEID, the VSI branch is resumed */
    fw_sched_set_tcs(d->sched, 0x03);
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 1), tc1);
    ck_assert_uint_eq(suspend_resume(AQC_RESUME_SCHED_ELEMS, tc1_vsi[3]), AQ_RC_OK);
    /* all 8 TCs fit under the root (ice's root->children has max_children[0] slots) */
    fw_sched_set_tcs(d->sched, 0xff);
    for (unsigned tc = 0; tc < 8; tc++) {
        ck_assert_uint_ne(fw_sched_tc_teid(d->sched, tc), FW_SCHED_INVALID_TEID);
    }
    ck_assert_uint_eq(add_elems(v.root, 1, NULL), AQ_RC_EINVAL);
    /* an empty bitmap still leaves TC0 */
    fw_sched_set_tcs(d->sched, 0x00);
    ck_assert_uint_eq(fw_sched_tc_bitmap(d->sched), 0x01);
    ck_assert_uint_eq(fw_sched_tc_teid(d->sched, 0), v.tc0);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_tc0_forced"), 1);
}
END_TEST

START_TEST(pf_reset_restores_the_default_tree)
{
    uint32_t q, qs, rl7;
    uint16_t prof;
    Topo t;
    LantBranch v, v2;

    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 0, 0, &q), AQ_RC_OK);
    rl7 = add1(add1(v.l[5]));
    ck_assert_uint_eq(add_qset(rl7, 1, &qs), AQ_RC_OK);
    ck_assert_uint_eq(add_profile(6, 0, &prof), AQ_RC_OK);
    fw_sched_set_tcs(d->sched, 0x03);

    /* ice_init_hw / ice_rebuild: clear_pf_cfg first */
    ck_assert_uint_eq(send(AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    get_topo(&t);
    ck_assert_uint_eq(t.num, 3);
    ck_assert_uint_eq(t.e[2].type, TYPE_ENTRY);
    ck_assert_uint_eq(query(v.l[5], NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(query(q, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 0);
    ck_assert_uint_eq(fw_sched_rdma_qset_teid(d->sched, 1), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(remove_profile(6, 0, prof), AQ_RC_ENOENT);
    /* the port's TCs stay (query_port_ets reports them again) */
    ck_assert_uint_ne(fw_sched_tc_teid(d->sched, 1), FW_SCHED_INVALID_TEID);
    ck_assert_uint_eq(query(fw_sched_tc_teid(d->sched, 1), NULL), AQ_RC_OK);

    /* the next probe works as the first did; so after a PFSWR */
    lant_sched_branch(&v2);
    ck_assert_uint_eq(v2.root, v.root);
    ck_assert_uint_eq(v2.tc0, v.tc0);
    ck_assert_uint_eq(add_txq(v2.l[7], 0, 0, NULL), AQ_RC_OK);
    irdma_dev_pf_reset(d);
    aqt_init(h, d);
    lant_sched_branch(&v2);
    ck_assert_uint_eq(fw_sched_num_txqs(d->sched), 0);
}
END_TEST

START_TEST(layer_node_budget_is_enforced)
{
    uint32_t l2[64], l3[512];
    unsigned n2 = 0, n3 = 0, n4 = 0;
    uint16_t rc = AQ_RC_OK;
    LantBranch v;

    lant_sched_branch(&v);
    fw_sched_set_tcs(d->sched, 0xff);
    for (unsigned tc = 0; tc < 8; tc++) {
        uint32_t parent = fw_sched_tc_teid(d->sched, tc);
        unsigned room = tc == 0 ? 7 : 8;          /* TC0 holds the probe's L2 */

        ck_assert_uint_eq(add_elems(parent, room, l2 + n2), AQ_RC_OK);
        n2 += room;
    }
    for (unsigned i = 0; i < n2; i++) {
        ck_assert_uint_eq(add_elems(l2[i], 8, l3 + n3), AQ_RC_OK);
        n3 += 8;
    }
    /* layer 4 runs out at its budget long before its parents do */
    for (unsigned i = 0; i < n3 && rc == AQ_RC_OK; i++) {
        for (unsigned k = 0; k < 8 && rc == AQ_RC_OK; k++) {
            rc = add_elems(l3[i], 1, NULL);
            n4 += rc == AQ_RC_OK;
        }
    }
    ck_assert_uint_eq(rc, AQ_RC_ENOSPC);
    ck_assert_uint_eq(n4 + 1, 512);               /* + the probe's L4 */
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_layer_full"), 1);
}
END_TEST

/* Random commands: nothing may crash or leak; the tree must still answer afterwards. */
START_TEST(random_commands_are_survived)
{
    static const uint16_t opcodes[] = {
        AQC_GET_DFLT_TOPO, AQC_ADD_SCHED_ELEMS, AQC_CFG_SCHED_ELEMS, AQC_GET_SCHED_ELEMS,
        AQC_MOVE_SCHED_ELEMS, AQC_SUSPEND_SCHED_ELEMS, AQC_RESUME_SCHED_ELEMS,
        AQC_DELETE_SCHED_ELEMS, AQC_ADD_RL_PROFILES, AQC_QUERY_SCHED_RES,
        AQC_REMOVE_RL_PROFILES, AQC_ADD_TXQS, AQC_DIS_TXQS, AQC_ADD_RDMA_QSET,
    };
    static uint8_t buf[AQ_MAX_BUF];
    GRand *rnd = g_rand_new_with_seed(0x5ced);
    uint32_t teids[64];
    unsigned nteids = 0;
    Topo t;
    LantBranch v;

    lant_sched_branch(&v);
    for (unsigned l = 1; l <= 7; l++) {
        teids[nteids++] = v.l[l];
    }
    for (unsigned iter = 0; iter < 3000; iter++) {
        uint16_t opc = opcodes[g_rand_int_range(rnd, 0, G_N_ELEMENTS(opcodes))];
        uint16_t len = g_rand_int_range(rnd, 0, 4) == 0 ? g_rand_int_range(rnd, 0, AQ_MAX_BUF)
                                                       : g_rand_int_range(rnd, 0, 200);
        uint8_t p[16];

        for (unsigned i = 0; i < sizeof(p); i++) {
            p[i] = g_rand_int_range(rnd, 0, 4) ? g_rand_int_range(rnd, 0, 4)
                                               : g_rand_int_range(rnd, 0, 256);
        }
        for (unsigned i = 0; i < len; i++) {
            buf[i] = g_rand_int_range(rnd, 0, 3) ? g_rand_int_range(rnd, 0, 9)
                                                 : g_rand_int_range(rnd, 0, 256);
        }
        /* sprinkle known TEIDs where TEIDs go */
        for (unsigned i = 0; i + 4 <= len; i += 4) {
            if (g_rand_int_range(rnd, 0, 3) == 0) {
                st32(buf + i, teids[g_rand_int_range(rnd, 0, nteids)]);
            }
        }
        aqt_send(h, d, opc, g_rand_boolean(rnd) ? AQ_FLAG_RD : 0, p, buf, len, NULL);
        if (opc == AQC_ADD_SCHED_ELEMS && nteids < G_N_ELEMENTS(teids) && len >= 32) {
            teids[nteids++] = ld32(buf + 12);
        }
    }
    g_rand_free(rnd);
    get_topo(&t);
    ck_assert_uint_eq(t.e[0].teid, fw_sched_root_teid(d->sched));
    ck_assert_uint_eq(send(AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    lant_sched_branch(&v);
    ck_assert_uint_eq(add_txq(v.l[7], 0, 0, NULL), AQ_RC_OK);
}
END_TEST

/* ice 6.12/7.3 ice_cfg_tx_topo -> ice_get_set_tx_topo(get): ICE_AQC_TX_TOPO_GET_RAM, a 4 KiB
 * buffer with RD on E810. The answer must carry neither LOAD_NEW (0x10) nor ISSUED (0x20): with
 * the 9-layer tree in force (query_sched_res) the driver then keeps it (-EEXIST, silently). */
START_TEST(tx_topo_is_the_default_nine_layers)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    static uint8_t buf[4096];
    AqtResp r;

    params[0] = 0xff;                                /* the response overwrites it */
    params[1] = 2;                                   /* ICE_AQC_TX_TOPO_GET_RAM */
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_TX_TOPO, AQ_FLAG_RD, params, buf, sizeof(buf), &r),
                      AQ_RC_OK);
    ck_assert_uint_eq(r.params[0] & (0x10 | 0x20), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_sched_tx_topo: default 9 layers"), 1);
    params[1] = 1;
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_TX_TOPO, AQ_FLAG_RD, params, buf, sizeof(buf), &r),
                      AQ_RC_EINVAL);
}
END_TEST

Suite *fw_sched_suite(void)
{
    Suite *s = suite_create("fw_sched");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, query_sched_res_reports_nine_layers_of_eight);
    tcase_add_test(tc, query_sched_res_short_buffer_is_einval);
    tcase_add_test(tc, tx_topo_is_the_default_nine_layers);
    tcase_add_test(tc, dflt_topo_is_root_tc0_entry_point);
    tcase_add_test(tc, dflt_topo_bad_port_or_short_buffer_is_einval);
    tcase_add_test(tc, entry_point_deleted_is_gone);
    tcase_add_test(tc, vsi_setup_and_lan_queues);
    tcase_add_test(tc, add_elems_fills_every_teid_and_counts_groups);
    tcase_add_test(tc, add_elems_malformed);
    tcase_add_test(tc, get_elems_several_and_malformed);
    tcase_add_test(tc, cfg_elems_updates_the_valid_sections);
    tcase_add_test(tc, delete_refuses_nodes_with_children_and_fw_nodes);
    tcase_add_test(tc, delete_several_is_all_or_nothing);
    tcase_add_test(tc, aggregator_move_as_ice_set_agg_vsi);
    tcase_add_test(tc, suspend_resume_set_the_flag);
    tcase_add_test(tc, rl_profiles_bookkeeping);
    tcase_add_test(tc, rl_profiles_are_bounded_per_layer);
    tcase_add_test(tc, add_txqs_malformed);
    tcase_add_test(tc, dis_txqs_variants_and_malformed);
    tcase_add_test(tc, rdma_qset_chain_under_the_vsi_node);
    tcase_add_test(tc, dcb_tc_change_keeps_tc_teids_stable);
    tcase_add_test(tc, pf_reset_restores_the_default_tree);
    tcase_add_test(tc, layer_node_budget_is_enforced);
    tcase_add_test(tc, random_commands_are_survived);
    suite_add_tcase(s, tc);
    return s;
}
