/* ah.c - address handles and multicast groups (see ah.h). */
#include "rdma/ah.h"
#include "rdma/hmc.h"
#include "rdma/qp.h"
#include "core/trace.h"

struct PeAhs {
    IrdmaDev *d;
    GHashTable *ahs;           /* idx -> PeAh * */
    GHashTable *mcgs;          /* idx -> PeMcg * */
};

PeAhs *ah_block_new(IrdmaDev *d)
{
    PeAhs *ahs = g_new0(PeAhs, 1);

    ahs->d = d;
    ahs->ahs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    ahs->mcgs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return ahs;
}

void ah_block_free(PeAhs *ahs)
{
    if (!ahs) {
        return;
    }
    g_hash_table_destroy(ahs->ahs);
    g_hash_table_destroy(ahs->mcgs);
    g_free(ahs);
}

void ah_block_reset(PeAhs *ahs)
{
    g_hash_table_remove_all(ahs->ahs);
    g_hash_table_remove_all(ahs->mcgs);
}

static PeAh *ah_get(IrdmaDev *d, uint32_t idx)
{
    return g_hash_table_lookup(d->ahs->ahs, GUINT_TO_POINTER(idx));
}

static PeMcg *mcg_get(IrdmaDev *d, uint32_t idx)
{
    return g_hash_table_lookup(d->ahs->mcgs, GUINT_TO_POINTER(idx));
}

const PeAh *ah_lookup(IrdmaDev *d, uint32_t idx)
{
    return ah_get(d, idx);
}

const PeMcg *mcg_lookup(IrdmaDev *d, uint32_t idx)
{
    return mcg_get(d, idx);
}

unsigned ah_count(IrdmaDev *d)
{
    return g_hash_table_size(d->ahs->ahs);
}

unsigned mcg_count(IrdmaDev *d)
{
    return g_hash_table_size(d->ahs->mcgs);
}

static bool has_qp(const GArray *qps, uint32_t qp)
{
    for (unsigned i = 0; i < qps->len; i++) {
        if (g_array_index(qps, uint32_t, i) == qp) {
            return true;
        }
    }
    return false;
}

unsigned mcg_members_of(IrdmaDev *d, bool ipv4, const uint32_t ip[4], GArray *qps)
{
    GHashTableIter it;
    gpointer value;
    unsigned groups = 0;

    g_hash_table_iter_init(&it, d->ahs->mcgs);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        const PeMcg *g = value;

        if (g->ipv4 != ipv4 || memcmp(g->ip, ip, (ipv4 ? 1 : 4) * sizeof(ip[0]))) {
            continue;
        }
        groups++;
        for (unsigned i = 0; i < g->members; i++) {
            if (!has_qp(qps, g->member[i].qp)) {
                g_array_append_val(qps, g->member[i].qp);
            }
        }
    }
    return groups;
}

/* An IPv4 (in [31:0] of the qword at @off23) or IPv6 (words 0,1 at @off01, 2,3 at @off23)
 * address of a WQE, into @ip in irdma's word order. */
static void wqe_ip(const CqpWqe *w, bool ipv4, unsigned off01, unsigned off23, uint32_t ip[4])
{
    uint64_t q01 = cqp_qw(w, off01), q23 = cqp_qw(w, off23);

    if (ipv4) {
        ip[0] = pe_get(q23, CQPWQE_IP_ADDR1);
        ip[1] = ip[2] = ip[3] = 0;
        return;
    }
    ip[0] = pe_get(q01, CQPWQE_IP_ADDR0);
    ip[1] = pe_get(q01, CQPWQE_IP_ADDR1);
    ip[2] = pe_get(q23, CQPWQE_IP_ADDR0);
    ip[3] = pe_get(q23, CQPWQE_IP_ADDR1);
}

/* The AH a WQE describes, index checked against FSIAV (count and backing) and ARPINDEX
 * against the ARP count. False with @r failed. */
static bool parse_ah(IrdmaDev *d, const CqpWqe *w, PeAh *ah, CqpResult *r)
{
    uint64_t qw1 = cqp_qw(w, CQPWQE_AH_QW1), qw2 = cqp_qw(w, CQPWQE_AH_QW2), gpa;
    uint32_t idx = pe_get(w->hdr, CQPWQE_AH_AVIDX);
    HmcStatus st = hmc_obj_gpa(d, HMC_FSIAV, idx, &gpa);

    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        emu_trace(&d->host, TR_ERR_AH_NO_HMC, "ah=%u: AV context unbacked", idx);
        return false;
    }
    *ah = (PeAh) {
        .idx = idx,
        .pd = pe_get(qw1, CQPWQE_AH_PDINDEXLO) | (pe_get(qw2, CQPWQE_AH_PDINDEXHI) << 16),
        .src_mac = pe_get(cqp_qw(w, CQPWQE_AH_MAC_OFF), CQPWQE_AH_MAC),
        .arp_idx = pe_get(qw2, CQPWQE_AH_ARPINDEX),
        .ipv4 = w->hdr & CQPWQE_AH_IPV4VALID,
        .tc = pe_get(qw1, CQPWQE_AH_TC),
        .hop_limit = pe_get(qw2, CQPWQE_AH_HOPLIMIT),
        .flow_label = pe_get(qw2, CQPWQE_AH_FLOWLABEL),
        .insert_vlan = w->hdr & CQPWQE_AH_INSERTVLANTAG,
        .vlan_tag = pe_get(qw1, CQPWQE_AH_VLANTAG),
        .loopback = w->hdr & CQPWQE_AH_DOLOOPBACK,
    };
    wqe_ip(w, ah->ipv4, CQPWQE_AH_DESTIP01_OFF, CQPWQE_AH_DESTIP23_OFF, ah->dest_ip);
    wqe_ip(w, ah->ipv4, CQPWQE_AH_SRCIP01_OFF, CQPWQE_AH_SRCIP23_OFF, ah->src_ip);
    if (ah->arp_idx >= hmc_obj_count(d, HMC_ARP)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_AH_BAD_ARP_IDX, "ah=%u arp_idx=%u", idx, ah->arp_idx);
        return false;
    }
    return true;
}

static void trace_ah(IrdmaDev *d, EmuTraceId ev, const PeAh *ah)
{
    emu_trace(&d->host, ev, "ah=%u pd=%u %s dst=%08x:%08x:%08x:%08x arp=%u tc=%u hop=%u "
              "fl=0x%05x vlan=%s0x%04x", ah->idx, ah->pd, ah->ipv4 ? "v4" : "v6",
              ah->dest_ip[0], ah->dest_ip[1], ah->dest_ip[2], ah->dest_ip[3], ah->arp_idx,
              ah->tc, ah->hop_limit, ah->flow_label, ah->insert_vlan ? "+" : "-",
              ah->vlan_tag);
}

static void op_create_ah(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeAh ah, *n;

    if (!parse_ah(d, w, &ah, r)) {
        return;
    }
    if (ah_get(d, ah.idx)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_AH_EXISTS, "ah=%u", ah.idx);
        return;
    }
    n = g_new(PeAh, 1);
    *n = ah;
    g_hash_table_insert(d->ahs->ahs, GUINT_TO_POINTER(ah.idx), n);
    /* OPRETVAL stays 0: irdma's non-sleeping AH create takes anything else as a failure. */
    trace_ah(d, TR_AH_CREATE, n);
}

static void op_modify_ah(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeAh ah, *old;

    if (!parse_ah(d, w, &ah, r)) {
        return;
    }
    old = ah_get(d, ah.idx);
    if (!old) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_AH_NONE, "ah=%u", ah.idx);
        return;
    }
    *old = ah;
    trace_ah(d, TR_AH_MODIFY, old);
}

/* DESTROY carries the whole AH again; only the index matters. */
static void op_destroy_ah(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t idx = pe_get(w->hdr, CQPWQE_AH_AVIDX);

    if (!g_hash_table_remove(d->ahs->ahs, GUINT_TO_POINTER(idx))) {
        cqp_fail(r, CQP_MAJ_ERROR,
                 idx >= hmc_obj_count(d, HMC_FSIAV) ? CQP_MIN_BAD_ID : CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_AH_NONE, "ah=%u", idx);
        return;
    }
    emu_trace(&d->host, TR_AH_DESTROY, "ah=%u", idx);
}

/* The group a CREATE/MODIFY WQE describes, members read from its context buffer: each valid
 * entry must name a QP number within the QP objects. One that names no UD QP is kept (traced):
 * the group context holds QP numbers only, and irdma can leave a destroyed QP in a group (two
 * attaches that both miss irdma_attach_mcast's lookup make two groups of one address, and a
 * detach that finds the other one removes nothing); such a member's copies are dropped (roce.c).
 * False with @r failed. */
static bool parse_mcg(IrdmaDev *d, const CqpWqe *w, PeMcg *g, CqpResult *r)
{
    uint64_t qw2 = cqp_qw(w, CQPWQE_MG_QW2), pa = cqp_qw(w, CQPWQE_MG_CTX_OFF);
    uint8_t ctx[MG_CTX_ENTRIES * 8];

    *g = (PeMcg) {
        .idx = pe_get(w->hdr, CQPWQE_MG_IDX),
        .mac = pe_get(cqp_qw(w, CQPWQE_MG_MAC_OFF), CQPWQE_MG_MAC),
        .ipv4 = w->hdr & CQPWQE_MG_IPV4VALID,
        .vlan_valid = w->hdr & CQPWQE_MG_VLANVALID,
        .vlan_id = pe_get(qw2, CQPWQE_MG_VLANID),
        .qs_handle = pe_get(qw2, CQPWQE_MG_QS_HANDLE),
    };
    wqe_ip(w, g->ipv4, CQPWQE_MG_IP01_OFF, CQPWQE_MG_IP23_OFF, g->ip);
    if (g->idx >= MG_MAX) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_MCG_BAD_IDX, "mg=%u", g->idx);
        return false;
    }
    if (pa == 0 || pa % 8 || !pe_dma_read(d, pa, ctx, sizeof(ctx))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        emu_trace(&d->host, TR_ERR_MCG_CTX_UNREACHABLE, "mg=%u ctx=0x%" G_GINT64_MODIFIER "x",
                  g->idx, pa);
        return false;
    }
    for (unsigned i = 0; i < MG_CTX_ENTRIES; i++) {
        uint64_t e = ld64(ctx + 8 * i);
        uint32_t qpn = pe_get(e, MG_CTX_QPID);
        const PeQp *qp;

        if (!(e & MG_CTX_VALIDENT)) {
            continue;
        }
        if (qpn >= hmc_obj_count(d, HMC_QP)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
            emu_trace(&d->host, TR_ERR_MCG_BAD_QP, "mg=%u entry %u: qp=%u past the QP objects",
                      g->idx, i, qpn);
            return false;
        }
        qp = qp_lookup(d, qpn);
        if (!qp || qp->type != QP_TYPE_ROCE_UD) {
            emu_trace(&d->host, TR_MCG_MEMBER_NO_QP, "mg=%u entry %u: qp=%u is no UD QP (kept)",
                      g->idx, i, qpn);
        }
        g->member[g->members++] = (PeMcgMember) { qpn, pe_get(e, MG_CTX_DESTPORT) };
    }
    return true;
}

static void trace_mcg(IrdmaDev *d, EmuTraceId ev, const PeMcg *g)
{
    char qps[MG_CTX_ENTRIES * 9 + 1] = "", *at = qps;

    for (unsigned i = 0; i < g->members; i++) {
        at += g_snprintf(at, sizeof(qps) - (at - qps), " %u", g->member[i].qp);
    }
    emu_trace(&d->host, ev, "mg=%u %s %08x:%08x:%08x:%08x members=%u:%s", g->idx,
              g->ipv4 ? "v4" : "v6", g->ip[0], g->ip[1], g->ip[2], g->ip[3], g->members, qps);
}

static void op_create_mcg(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeMcg g, *n;

    if (!parse_mcg(d, w, &g, r)) {
        return;
    }
    if (mcg_get(d, g.idx)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_MCG_EXISTS, "mg=%u", g.idx);
        return;
    }
    n = g_new(PeMcg, 1);
    *n = g;
    g_hash_table_insert(d->ahs->mcgs, GUINT_TO_POINTER(g.idx), n);
    trace_mcg(d, TR_MCG_CREATE, n);
}

static void op_modify_mcg(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeMcg g, *old;

    if (!parse_mcg(d, w, &g, r)) {
        return;
    }
    old = mcg_get(d, g.idx);
    if (!old) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_MCG_NONE, "mg=%u", g.idx);
        return;
    }
    *old = g;
    trace_mcg(d, TR_MCG_MODIFY, old);
}

static void op_destroy_mcg(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint32_t idx = pe_get(w->hdr, CQPWQE_MG_IDX);

    if (!g_hash_table_remove(d->ahs->mcgs, GUINT_TO_POINTER(idx))) {
        cqp_fail(r, CQP_MAJ_ERROR, idx >= MG_MAX ? CQP_MIN_BAD_ID : CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_MCG_NONE, "mg=%u", idx);
        return;
    }
    emu_trace(&d->host, TR_MCG_DESTROY, "mg=%u", idx);
}

static const CqpOp ah_ops[] = {
    { CQP_OP_CREATE_AH, "CREATE_ADDR_HANDLE", op_create_ah, CQP_OBJ_NONE },
    { CQP_OP_MODIFY_AH, "MODIFY_ADDR_HANDLE", op_modify_ah, CQP_OBJ_NONE },
    { CQP_OP_DESTROY_AH, "DESTROY_ADDR_HANDLE", op_destroy_ah, CQP_OBJ_NONE },
    { CQP_OP_CREATE_MCAST_GRP, "CREATE_MCAST_GRP", op_create_mcg, CQP_OBJ_NONE },
    { CQP_OP_MODIFY_MCAST_GRP, "MODIFY_MCAST_GRP", op_modify_mcg, CQP_OBJ_NONE },
    { CQP_OP_DESTROY_MCAST_GRP, "DESTROY_MCAST_GRP", op_destroy_mcg, CQP_OBJ_NONE },
};

const CqpOpTable ah_cqp_ops = { ah_ops, G_N_ELEMENTS(ah_ops) };
