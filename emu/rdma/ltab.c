/* ltab.c - APBVT, quad hash, local MAC table, push pages (see ltab.h). */
#include "rdma/ltab.h"
#include "rdma/hmc.h"
#include "rdma/qp.h"
#include "core/trace.h"
#include "rdma/ws.h"

#define APBVT_PORTS  65536

typedef struct LocalMac {
    bool allocated;
    bool written;
    uint64_t mac;
} LocalMac;

struct PeLtab {
    IrdmaDev *d;
    uint8_t apbvt[APBVT_PORTS / 8];
    unsigned apbvt_count;
    GHashTable *qhash;         /* PeQhashKey * -> PeQhash * (the key is inside the value) */
    LocalMac lmac[LMAC_ENTRIES];
    uint8_t push[QP_PUSH_PAGES];
    unsigned push_count;
};

static guint qhash_key_hash(gconstpointer p)
{
    const PeQhashKey *k = p;
    guint h = k->type ^ (k->ipv4 << 3) ^ (k->vlan_valid << 4) ^ ((guint)k->vlan_id << 5);

    for (unsigned i = 0; i < 4; i++) {
        h = h * 31 + k->dest_ip[i];
        h = h * 31 + k->src_ip[i];
    }
    return h * 31 + (((guint)k->dest_port << 16) | k->src_port);
}

static gboolean qhash_key_equal(gconstpointer a, gconstpointer b)
{
    const PeQhashKey *x = a, *y = b;

    return x->type == y->type && x->ipv4 == y->ipv4 && x->vlan_valid == y->vlan_valid &&
           x->vlan_id == y->vlan_id && x->dest_port == y->dest_port &&
           x->src_port == y->src_port && !memcmp(x->dest_ip, y->dest_ip, sizeof(x->dest_ip)) &&
           !memcmp(x->src_ip, y->src_ip, sizeof(x->src_ip));
}

PeLtab *ltab_new(IrdmaDev *d)
{
    PeLtab *t = g_new0(PeLtab, 1);

    t->d = d;
    t->qhash = g_hash_table_new_full(qhash_key_hash, qhash_key_equal, NULL, g_free);
    return t;
}

void ltab_free(PeLtab *t)
{
    if (!t) {
        return;
    }
    g_hash_table_destroy(t->qhash);
    g_free(t);
}

void ltab_reset(PeLtab *t)
{
    memset(t->apbvt, 0, sizeof(t->apbvt));
    t->apbvt_count = 0;
    g_hash_table_remove_all(t->qhash);
    memset(t->lmac, 0, sizeof(t->lmac));
    memset(t->push, 0, sizeof(t->push));
    t->push_count = 0;
}

bool ltab_apbvt_has(IrdmaDev *d, uint16_t port)
{
    return d->ltab->apbvt[port / 8] & (1u << (port % 8));
}

unsigned ltab_apbvt_count(IrdmaDev *d)
{
    return d->ltab->apbvt_count;
}

const PeQhash *ltab_qhash_lookup(IrdmaDev *d, const PeQhashKey *key)
{
    return g_hash_table_lookup(d->ltab->qhash, key);
}

unsigned ltab_qhash_count(IrdmaDev *d)
{
    return g_hash_table_size(d->ltab->qhash);
}

bool ltab_local_mac(IrdmaDev *d, unsigned idx, uint64_t *mac)
{
    if (idx >= LMAC_ENTRIES || !d->ltab->lmac[idx].written) {
        return false;
    }
    *mac = d->ltab->lmac[idx].mac;
    return true;
}

unsigned ltab_local_mac_count(IrdmaDev *d)
{
    unsigned n = 0;

    for (unsigned i = 0; i < LMAC_ENTRIES; i++) {
        n += d->ltab->lmac[i].allocated;
    }
    return n;
}

bool ltab_push_page_allocated(IrdmaDev *d, unsigned idx)
{
    return idx < QP_PUSH_PAGES && d->ltab->push[idx];
}

unsigned ltab_push_page_count(IrdmaDev *d)
{
    return d->ltab->push_count;
}

static void op_manage_apbvt(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeLtab *t = d->ltab;
    uint16_t port = pe_get(cqp_qw(w, CQPWQE_APBVT_PORT_OFF), CQPWQE_APBVT_PORT);
    bool add = w->hdr & CQPWQE_APBVT_ADDPORT;
    uint64_t gpa;
    HmcStatus st = hmc_obj_gpa(d, HMC_APBVT, 0, &gpa);

    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        emu_trace(&d->host, TR_ERR_APBVT_NO_HMC, "port=%u", port);
        return;
    }
    /* irdma counts its users per port and only adds the first / deletes the last. */
    if (add == ltab_apbvt_has(d, port)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_APBVT_REFUSED, "%s port %u: %s", add ? "add" : "delete", port,
                  add ? "already there" : "not there");
        return;
    }
    t->apbvt[port / 8] ^= 1u << (port % 8);
    t->apbvt_count += add ? 1 : -1;
    emu_trace(&d->host, add ? TR_APBVT_ADD : TR_APBVT_DEL, "port=%u", port);
}

static void qhash_ip(const CqpWqe *w, bool ipv4, unsigned off01, unsigned off23, uint32_t ip[4])
{
    uint64_t q01 = cqp_qw(w, off01), q23 = cqp_qw(w, off23);

    memset(ip, 0, 4 * sizeof(*ip));
    if (ipv4) {
        ip[0] = pe_get(q23, CQPWQE_IP_ADDR1);
        return;
    }
    ip[0] = pe_get(q01, CQPWQE_IP_ADDR0);
    ip[1] = pe_get(q01, CQPWQE_IP_ADDR1);
    ip[2] = pe_get(q23, CQPWQE_IP_ADDR0);
    ip[3] = pe_get(q23, CQPWQE_IP_ADDR1);
}

static void op_manage_qhash(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeLtab *t = d->ltab;
    uint64_t qw1 = cqp_qw(w, CQPWQE_QHASH_QW1), qw2 = cqp_qw(w, CQPWQE_QHASH_QW2);
    unsigned manage = pe_get(w->hdr, CQPWQE_QHASH_MANAGE);
    PeQhash e = {
        .key = {
            .type = pe_get(w->hdr, CQPWQE_QHASH_ENTRYTYPE),
            .ipv4 = w->hdr & CQPWQE_QHASH_IPV4VALID,
            .vlan_valid = w->hdr & CQPWQE_QHASH_VLANVALID,
            .dest_port = pe_get(qw1, CQPWQE_QHASH_DEST_PORT),
        },
        .qpn = pe_get(qw1, CQPWQE_QHASH_QPN),
        .qs_handle = pe_get(qw2, CQPWQE_QHASH_QS_HANDLE),
        .mac = pe_get(cqp_qw(w, CQPWQE_QHASH_MAC_OFF), CQPWQE_QHASH_MAC),
    };
    PeQhash *old, *n;

    if (e.key.vlan_valid) {
        e.key.vlan_id = pe_get(qw2, CQPWQE_QHASH_VLANID);
    }
    qhash_ip(w, e.key.ipv4, CQPWQE_QHASH_DESTIP01_OFF, CQPWQE_QHASH_DESTIP23_OFF,
             e.key.dest_ip);
    if (e.key.type == QHASH_TYPE_TCP_ESTABLISHED) {
        e.key.src_port = pe_get(qw1, CQPWQE_QHASH_SRC_PORT);
        qhash_ip(w, e.key.ipv4, CQPWQE_QHASH_SRCIP01_OFF, CQPWQE_QHASH_SRCIP23_OFF,
                 e.key.src_ip);
    }
    if (e.key.type < QHASH_TYPE_TCP_ESTABLISHED || e.key.type > QHASH_TYPE_ROCEV2_HW ||
        manage > QHASH_MANAGE_MODIFY) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_QHASH_BAD_FIELD, "type=%u manage=%u", e.key.type, manage);
        return;
    }
    if (manage != QHASH_MANAGE_DELETE && e.qpn >= hmc_obj_count(d, HMC_QP)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_QHASH_BAD_QP, "qpn=%u", e.qpn);
        return;
    }
    old = g_hash_table_lookup(t->qhash, &e.key);
    switch (manage) {
    case QHASH_MANAGE_ADD:
        if (old) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            emu_trace(&d->host, TR_ERR_QHASH_EXISTS, "port=%u type=%u", e.key.dest_port,
                      e.key.type);
            return;
        }
        if (g_hash_table_size(t->qhash) >= MIN(QHASH_ENTRIES_MAX, hmc_obj_count(d, HMC_HTE))) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
            emu_trace(&d->host, TR_QHASH_FULL, "%u entries", g_hash_table_size(t->qhash));
            return;
        }
        n = g_new(PeQhash, 1);
        *n = e;
        g_hash_table_insert(t->qhash, &n->key, n);
        break;
    case QHASH_MANAGE_MODIFY:
        if (!old) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            emu_trace(&d->host, TR_ERR_QHASH_NONE, "port=%u type=%u", e.key.dest_port, e.key.type);
            return;
        }
        old->qpn = e.qpn;
        old->qs_handle = e.qs_handle;
        old->mac = e.mac;
        break;
    default:
        if (!old) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            emu_trace(&d->host, TR_ERR_QHASH_NONE, "port=%u type=%u", e.key.dest_port, e.key.type);
            return;
        }
        g_hash_table_remove(t->qhash, &e.key);
        break;
    }
    emu_trace(&d->host, TR_QHASH_MANAGE, "%s type=%u %s dst=%08x:%u src=%08x:%u qp=%u qs=%u",
              manage == QHASH_MANAGE_ADD ? "add" : manage == QHASH_MANAGE_MODIFY ? "modify" :
              "delete", e.key.type, e.key.ipv4 ? "v4" : "v6", e.key.dest_ip[0],
              e.key.dest_port, e.key.src_ip[0], e.key.src_port, e.qpn, e.qs_handle);
}

/* ALLOCATE_LOC_MAC_TABLE_ENTRY: OPRETVAL is the lowest free index. */
static void op_alloc_local_mac(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeLtab *t = d->ltab;
    unsigned i;

    (void)w;
    for (i = 0; i < LMAC_ENTRIES && t->lmac[i].allocated; i++) {
    }
    if (i == LMAC_ENTRIES) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        emu_trace(&d->host, TR_LOCAL_MAC_FULL, "%u entries", LMAC_ENTRIES);
        return;
    }
    t->lmac[i] = (LocalMac) { .allocated = true };
    r->ret_val = i;
    emu_trace(&d->host, TR_LOCAL_MAC_ALLOC, "idx=%u", i);
}

/* MANAGE_LOC_MAC_TABLE: write an allocated entry, or free it (FREEENTRY). */
static void op_manage_local_mac(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeLtab *t = d->ltab;
    unsigned idx = pe_get(w->hdr, CQPWQE_LMAC_IDX);
    LocalMac *e = &t->lmac[idx];

    if (!e->allocated) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_LOCAL_MAC_NONE, "idx=%u not allocated", idx);
        return;
    }
    if (w->hdr & CQPWQE_LMAC_FREEENTRY) {
        *e = (LocalMac) { 0 };
        emu_trace(&d->host, TR_LOCAL_MAC_FREE, "idx=%u", idx);
        return;
    }
    e->mac = pe_get(cqp_qw(w, CQPWQE_LMAC_MAC_OFF), CQPWQE_LMAC_MAC);
    e->written = true;
    emu_trace(&d->host, TR_LOCAL_MAC_SET, "idx=%u mac=%012" G_GINT64_MODIFIER "x", idx, e->mac);
}

/* MANAGE_PUSH_PAGES: allocate (OPRETVAL = the page) for a WS leaf, or free one. */
static void op_manage_push_pages(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeLtab *t = d->ltab;
    unsigned idx = pe_get(w->hdr, CQPWQE_PUSH_IDX);
    unsigned qs = pe_get(cqp_qw(w, CQPWQE_PUSH_QS_OFF), CQPWQE_PUSH_QS_HANDLE);

    if (pe_get(w->hdr, CQPWQE_PUSH_TYPE) != 0) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_PUSH_PAGE_BAD_TYPE, "type=%u",
                  (unsigned)pe_get(w->hdr, CQPWQE_PUSH_TYPE));
        return;
    }
    if (w->hdr & CQPWQE_PUSH_FREE_PAGE) {
        if (!t->push[idx]) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
            emu_trace(&d->host, TR_ERR_PUSH_PAGE_NONE, "idx=%u not allocated", idx);
            return;
        }
        t->push[idx] = 0;
        t->push_count--;
        emu_trace(&d->host, TR_PUSH_PAGE_FREE, "idx=%u", idx);
        return;
    }
    if (!ws_qs_handle_leaf(d, qs)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_PUSH_PAGE_BAD_QS, "qs_handle=%u is no WS leaf", qs);
        return;
    }
    for (idx = 0; idx < QP_PUSH_PAGES && t->push[idx]; idx++) {
    }
    if (idx == QP_PUSH_PAGES) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        emu_trace(&d->host, TR_PUSH_PAGE_FULL, "%u pages", QP_PUSH_PAGES);
        return;
    }
    t->push[idx] = 1;
    t->push_count++;
    r->ret_val = idx;
    emu_trace(&d->host, TR_PUSH_PAGE_ALLOC, "idx=%u qs=%u", idx, qs);
}

static const CqpOp ltab_ops[] = {
    { CQP_OP_MANAGE_APBVT, "MANAGE_APBVT", op_manage_apbvt, CQP_OBJ_NONE },
    { CQP_OP_MANAGE_QHASH, "MANAGE_QUAD_HASH_TABLE_ENTRY", op_manage_qhash, CQP_OBJ_NONE },
    { CQP_OP_ALLOC_LOC_MAC, "ALLOCATE_LOC_MAC_TABLE_ENTRY", op_alloc_local_mac, CQP_OBJ_NONE },
    { CQP_OP_MANAGE_LOC_MAC, "MANAGE_LOC_MAC_TABLE", op_manage_local_mac, CQP_OBJ_NONE },
    { CQP_OP_MANAGE_PUSH_PAGES, "MANAGE_PUSH_PAGES", op_manage_push_pages, CQP_OBJ_NONE },
};

const CqpOpTable ltab_cqp_ops = { ltab_ops, G_N_ELEMENTS(ltab_ops) };
