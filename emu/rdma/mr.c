/* mr.c - memory regions and windows: the STag table (see mr.h). */
#include "rdma/mr.h"
#include "core/idcache.h"
#include "rdma/hmc.h"
#include "core/trace.h"

#define MR_PAGE_4K  (4ull << 10)
#define MR_PAGE_2M  (2ull << 20)
#define MR_PAGE_1G  (1ull << 30)

struct PeMrs {
    IrdmaDev *d;
    GHashTable *mrs;           /* table index -> PeMr * */
    IdCache cache;             /* in front of mrs: every SGE and STag looks its MR up */
};

PeMrs *mr_block_new(IrdmaDev *d)
{
    PeMrs *mrs = g_new0(PeMrs, 1);

    mrs->d = d;
    mrs->mrs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return mrs;
}

void mr_block_free(PeMrs *mrs)
{
    if (!mrs) {
        return;
    }
    g_hash_table_destroy(mrs->mrs);
    g_free(mrs);
}

void mr_block_reset(PeMrs *mrs)
{
    g_hash_table_remove_all(mrs->mrs);
    idcache_clear(&mrs->cache);
}

PeMr *mr_lookup_mut(IrdmaDev *d, uint32_t index)
{
    return idcache_lookup(&d->mrs->cache, d->mrs->mrs, index);
}

const PeMr *mr_lookup(IrdmaDev *d, uint32_t index)
{
    return mr_lookup_mut(d, index);
}

unsigned mr_count(IrdmaDev *d)
{
    return g_hash_table_size(d->mrs->mrs);
}

uint32_t mr_stag_index(IrdmaDev *d, uint32_t stag)
{
    uint32_t cnt = hmc_obj_count(d, HMC_MR);
    unsigned bits = STAG_IDX_BITS_MIN;

    /* get_count_order(cnt), at least STAG_IDX_BITS_MIN; the field has 24 bits. */
    while (bits < 24 && (1u << bits) < cnt) {
        bits++;
    }
    return (stag >> 8) & ((1u << bits) - 1);
}

static const char *kind(bool mw)
{
    return mw ? "MW" : "MR";
}

/* The STag index a WQE names, checked against the MR count, its HMC backing and (@want_free)
 * the table; the index in @index. False with @r failed. */
static bool wqe_index(IrdmaDev *d, const CqpWqe *w, bool want_free, uint32_t *index,
                      CqpResult *r)
{
    uint32_t stag_idx = pe_get(cqp_qw(w, CQPWQE_STAG_IDX_OFF), CQPWQE_STAG_IDX);
    uint32_t idx = mr_stag_index(d, stag_idx << 8);
    uint64_t gpa;
    HmcStatus st = hmc_obj_gpa(d, HMC_MR, idx, &gpa);

    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        emu_trace(&d->host, TR_ERR_MR_STAG_NO_HMC, "stag_idx=0x%06x index=%u: MR context unbacked",
                  stag_idx, idx);
        return false;
    }
    /* Index 0 makes STag 0, which means "no translation" to privileged QPs. */
    if (idx == 0) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_MR_STAG_ZERO, "stag_idx=0x%06x: index 0 is reserved", stag_idx);
        return false;
    }
    if (want_free && mr_lookup(d, idx)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_MR_STAG_IN_USE, "index=%u already allocated", idx);
        return false;
    }
    *index = idx;
    return true;
}

/* HMCFNIDX with USEHMCFNIDX must name this function. */
static bool fn_ok(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint64_t fn = pe_get(cqp_qw(w, CQPWQE_STAG_FN_OFF), CQPWQE_STAG_HMCFNIDX);

    if ((w->hdr & CQPWQE_STAG_USEHMCFNIDX) && fn != PE_PF_HMC_FN_ID) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_MR_STAG_BAD_FN, "hmc_fn_id=%" G_GINT64_MODIFIER "u", fn);
        return false;
    }
    return true;
}

/* Rights consistent with REMACCENABLED; remote write only with local write (IB). */
static bool rights_ok(IrdmaDev *d, unsigned rights, bool remote, CqpResult *r)
{
    bool rem = rights & (STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE);

    if ((rem && !remote) ||
        ((rights & STAG_RIGHT_REMOTE_WRITE) && !(rights & STAG_RIGHT_LOCAL_WRITE))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_MR_STAG_BAD_RIGHTS, "rights=0x%02x remote_access=%d", rights,
                  remote);
        return false;
    }
    return true;
}

static bool page_size_ok(IrdmaDev *d, unsigned enc, uint64_t *size, CqpResult *r)
{
    static const uint64_t sizes[] = { MR_PAGE_4K, MR_PAGE_2M, MR_PAGE_1G };

    if (enc >= G_N_ELEMENTS(sizes)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_MR_STAG_BAD_PAGE_SIZE, "hpagesize=%u", enc);
        return false;
    }
    *size = sizes[enc];
    return true;
}

/* The PBLEs an MR of @pages pages needs from @first, in range and backed (the root and the
 * last entry; the leaves of a level-2 PBL are the data path's to follow). */
static bool pbl_ok(IrdmaDev *d, unsigned level, uint32_t first, uint64_t pages, CqpResult *r)
{
    uint64_t n = level == PBL_LEVEL_1 ? pages : (pages + PBLES_PER_LEAF - 1) / PBLES_PER_LEAF;
    uint32_t cnt = hmc_obj_count(d, HMC_PBLE);
    uint64_t gpa;
    HmcStatus st;

    if (n == 0) {
        n = 1;
    }
    if (first >= cnt || n > cnt - first) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_MR_STAG_BAD_PBL, "first_pble=%u entries=%" G_GINT64_MODIFIER
                  "u of %u", first, n, cnt);
        return false;
    }
    st = hmc_obj_gpa(d, HMC_PBLE, first, &gpa);
    if (st == HMC_OK) {
        st = hmc_obj_gpa(d, HMC_PBLE, first + n - 1, &gpa);
    }
    if (st != HMC_OK) {
        hmc_status_fail(st, r);
        emu_trace(&d->host, TR_ERR_MR_STAG_PBL_UNMAPPED, "first_pble=%u entries=%" G_GINT64_MODIFIER
                  "u", first, n);
        return false;
    }
    return true;
}

/* ALLOC_STAG: an MR for fast registration (MR=1) or a memory window (MR=0). */
static void op_alloc_stag(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    bool is_mw = !(w->hdr & CQPWQE_STAG_MR);
    uint64_t qw1 = cqp_qw(w, CQPWQE_STAG_LEN_OFF);
    unsigned rights = pe_get(w->hdr, CQPWQE_STAG_ARIGHTS), level = pe_get(w->hdr, CQPWQE_LPBLSIZE);
    uint32_t idx;
    uint64_t page;
    PeMr *mr;

    if (!wqe_index(d, w, true, &idx, r) || !fn_ok(d, w, r)) {
        return;
    }
    mr = g_new0(PeMr, 1);
    *mr = (PeMr) {
        .index = idx,
        .stag_idx = pe_get(cqp_qw(w, CQPWQE_STAG_IDX_OFF), CQPWQE_STAG_IDX),
        .is_mw = is_mw,
        .state = MR_STATE_INVALID,
        .pd = pe_get(qw1, CQPWQE_STAG_PDID),
    };
    if (is_mw) {
        /* A window has no memory of its own: MR-only fields must be clear. */
        if (rights || level || pe_get(qw1, CQPWQE_STAG_LEN) ||
            (w->hdr & CQPWQE_STAG_VABASEDTO)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
            emu_trace(&d->host, TR_ERR_MR_MW_ALLOC_BAD_FIELD,
                      "index=%u hdr=0x%016" G_GINT64_MODIFIER
                      "x", idx, w->hdr);
            g_free(mr);
            return;
        }
        mr->mw_type = (w->hdr & CQPWQE_STAG_MWTYPE) ? 1 : 2;
        mr->mw1_no_key_check = w->hdr & CQPWQE_STAG_MW1_NO_KEY;
    } else {
        mr->rights = rights;
        mr->remote_access = w->hdr & CQPWQE_STAG_REMACCENABLED;
        mr->len = pe_get(qw1, CQPWQE_STAG_LEN);
        mr->page_enc = pe_get(w->hdr, CQPWQE_STAG_HPAGESIZE);
        mr->pbl_level = level;
        if (!rights_ok(d, rights, mr->remote_access, r) ||
            !page_size_ok(d, mr->page_enc, &page, r)) {
            g_free(mr);
            return;
        }
        mr->page_size = page;
        if (level != PBL_LEVEL_NONE && level != PBL_LEVEL_1 && level != PBL_LEVEL_2) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
            emu_trace(&d->host, TR_ERR_MR_STAG_BAD_PBL_LEVEL, "index=%u level=%u", idx, level);
            g_free(mr);
            return;
        }
        /* A PBL named at allocation is what the fast-register fills (chunk_size != 0). */
        if (level != PBL_LEVEL_NONE) {
            mr->first_pble = pe_get(cqp_qw(w, CQPWQE_STAG_PBL_OFF), CQPWQE_FIRSTPMPBLIDX);
            if (!pbl_ok(d, level, mr->first_pble, (mr->len + page - 1) / page, r)) {
                g_free(mr);
                return;
            }
        }
    }
    g_hash_table_insert(d->mrs->mrs, GUINT_TO_POINTER(idx), mr);
    idcache_forget(&d->mrs->cache, idx);
    if (is_mw) {
        emu_trace(&d->host, TR_MR_MW_ALLOC, "index=%u stag_idx=0x%06x type=%u pd=%u", idx,
                  mr->stag_idx, mr->mw_type, mr->pd);
    } else {
        emu_trace(&d->host, TR_MR_STAG_ALLOC, "index=%u stag_idx=0x%06x pd=%u len=%"
                  G_GINT64_MODIFIER "u rights=0x%02x", idx, mr->stag_idx, mr->pd, mr->len,
                  mr->rights);
    }
}

/* REG_MR (irdma_sc_mr_reg_non_shared): a valid MR at once. */
static void op_reg_mr(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint64_t qw1 = cqp_qw(w, CQPWQE_STAG_LEN_OFF), qw0 = cqp_qw(w, CQPWQE_STAG_VA_OFF);
    unsigned level = pe_get(w->hdr, CQPWQE_LPBLSIZE);
    PeMr m = {
        .stag_idx = pe_get(cqp_qw(w, CQPWQE_STAG_IDX_OFF), CQPWQE_STAG_IDX),
        .key = pe_get(cqp_qw(w, CQPWQE_STAG_IDX_OFF), CQPWQE_STAG_KEY),
        .state = MR_STATE_VALID,
        .pd = pe_get(qw1, CQPWQE_STAG_PDID),
        .rights = pe_get(w->hdr, CQPWQE_STAG_ARIGHTS),
        .remote_access = w->hdr & CQPWQE_STAG_REMACCENABLED,
        .va_based = w->hdr & CQPWQE_STAG_VABASEDTO,
        .len = pe_get(qw1, CQPWQE_STAG_LEN),
        .page_enc = pe_get(w->hdr, CQPWQE_STAG_HPAGESIZE),
        .pbl_level = level,
    };
    uint64_t pages;

    if (!(w->hdr & CQPWQE_STAG_MR)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_MR_REG_NOT_MR, "STAG_MR clear");
        return;
    }
    if (!wqe_index(d, w, true, &m.index, r) || !fn_ok(d, w, r) ||
        !rights_ok(d, m.rights, m.remote_access, r) ||
        !page_size_ok(d, m.page_enc, &m.page_size, r)) {
        return;
    }
    if (m.va_based) {
        m.va = qw0;
        m.fbo = qw0 & (m.page_size - 1);
    } else {
        m.fbo = qw0;
    }
    /* A zero-based offset lies within the first page; the last byte fits in 64 bits. */
    if (m.fbo >= m.page_size || (m.va_based && m.len && m.va + m.len - 1 < m.va)) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        emu_trace(&d->host, TR_ERR_MR_REG_BAD_RANGE, "index=%u va=0x%" G_GINT64_MODIFIER "x len=%"
                  G_GINT64_MODIFIER "u", m.index, qw0, m.len);
        return;
    }
    pages = (m.fbo + m.len + m.page_size - 1) / m.page_size;
    switch (level) {
    case PBL_LEVEL_NONE:
        /* One page, physically contiguous: its address, page aligned. */
        m.pa = cqp_qw(w, CQPWQE_STAG_PA_OFF);
        if (m.pa % m.page_size && m.len) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
            emu_trace(&d->host, TR_ERR_MR_REG_BAD_PA, "index=%u pa=0x%" G_GINT64_MODIFIER "x",
                      m.index, m.pa);
            return;
        }
        break;
    case PBL_LEVEL_1:
    case PBL_LEVEL_2:
        m.first_pble = pe_get(cqp_qw(w, CQPWQE_STAG_PBL_OFF), CQPWQE_FIRSTPMPBLIDX);
        if (!pbl_ok(d, level, m.first_pble, pages, r)) {
            return;
        }
        break;
    default:
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_FIELD);
        emu_trace(&d->host, TR_ERR_MR_STAG_BAD_PBL_LEVEL, "index=%u level=%u", m.index, level);
        return;
    }
    {
        PeMr *mr = g_new(PeMr, 1);

        *mr = m;
        g_hash_table_insert(d->mrs->mrs, GUINT_TO_POINTER(m.index), mr);
        idcache_forget(&d->mrs->cache, m.index);
    }
    emu_trace(&d->host, TR_MR_REG, "index=%u stag=0x%08x pd=%u %s va=0x%" G_GINT64_MODIFIER
              "x fbo=0x%" G_GINT64_MODIFIER "x len=%" G_GINT64_MODIFIER "u page=%"
              G_GINT64_MODIFIER "u pbl=%u rights=0x%02x", m.index, (m.stag_idx << 8) | m.key,
              m.pd, m.va_based ? "va-based" : "zero-based", m.va, m.fbo, m.len, m.page_size,
              m.pbl_level, m.rights);
}

/* DEALLOC_STAG: the MR bit says what the driver frees; the PD must be the owner's. */
static void op_dealloc_stag(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    bool is_mw = !(w->hdr & CQPWQE_STAG_MR);
    uint32_t pd = pe_get(cqp_qw(w, CQPWQE_STAG_LEN_OFF), CQPWQE_STAG_PDID), idx;
    PeMr *mr;

    if (!wqe_index(d, w, false, &idx, r)) {
        return;
    }
    mr = mr_lookup_mut(d, idx);
    if (!mr || mr->is_mw != is_mw) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        emu_trace(&d->host, TR_ERR_MR_DEALLOC_NONE, "index=%u: no %s there", idx, kind(is_mw));
        return;
    }
    if (mr->pd != pd) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        emu_trace(&d->host, TR_ERR_MR_DEALLOC_BAD_PD, "index=%u pd=%u, WQE says %u", idx, mr->pd,
                  pd);
        return;
    }
    emu_trace(&d->host, TR_MR_DEALLOC, "index=%u %s%s", idx, kind(is_mw),
              mr->bound ? " (bound)" : "");
    g_hash_table_remove(d->mrs->mrs, GUINT_TO_POINTER(idx));
    idcache_forget(&d->mrs->cache, idx);
}

static const CqpOp mr_ops[] = {
    { CQP_OP_ALLOC_STAG, "ALLOC_STAG", op_alloc_stag, CQP_OBJ_NONE },
    { CQP_OP_REG_MR, "REG_MR", op_reg_mr, CQP_OBJ_NONE },
    { CQP_OP_DEALLOC_STAG, "DEALLOC_STAG", op_dealloc_stag, CQP_OBJ_NONE },
};

const CqpOpTable mr_cqp_ops = { mr_ops, G_N_ELEMENTS(mr_ops) };

/* --- data path: STag checks and translation --- */

const char *mr_access_name(MrAccess a)
{
    static const char *const names[] = {
        [MR_ACCESS_OK] = "ok", [MR_ACCESS_INVALID_STAG] = "invalid STag",
        [MR_ACCESS_BAD_KEY] = "bad key", [MR_ACCESS_BAD_PD] = "bad PD",
        [MR_ACCESS_RIGHTS] = "rights", [MR_ACCESS_BOUNDS] = "bounds",
        [MR_ACCESS_DMA] = "DMA",
    };

    return names[a];
}

unsigned mr_access_ae(MrAccess a)
{
    switch (a) {
    case MR_ACCESS_BAD_KEY:
        return AE_AMP_BAD_STAG_KEY;
    case MR_ACCESS_BAD_PD:
        return AE_AMP_BAD_PD;
    case MR_ACCESS_RIGHTS:
        return AE_AMP_RIGHTS_VIOLATION;
    case MR_ACCESS_BOUNDS:
        return AE_AMP_BOUNDS_VIOLATION;
    default:
        return AE_AMP_INVALID_STAG;
    }
}

/* [va, va + len) within [base, base + size)? */
static bool in_range(uint64_t va, uint64_t len, uint64_t base, uint64_t size)
{
    return va >= base && va - base <= size && len <= size - (va - base);
}

/* The MR behind a valid STag: key, PD, rights and bounds checked; @pos its first byte. */
static MrAccess resolve_mr(const PeMr *mr, uint32_t stag, uint32_t pd, uint64_t va,
                           uint64_t len, unsigned want, uint64_t *pos)
{
    uint64_t off;

    if (mr->state != MR_STATE_VALID) {
        return MR_ACCESS_INVALID_STAG;
    }
    if (mr->key != (stag & 0xff)) {
        return MR_ACCESS_BAD_KEY;
    }
    if (mr->pd != pd) {
        return MR_ACCESS_BAD_PD;
    }
    if ((mr->rights & want) != want ||
        ((want & (STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE)) && !mr->remote_access)) {
        return MR_ACCESS_RIGHTS;
    }
    if (!in_range(va, len, mr->va_based ? mr->va : 0, mr->len)) {
        return MR_ACCESS_BOUNDS;
    }
    off = mr->va_based ? va - mr->va : va;
    *pos = mr->fbo + off;
    return MR_ACCESS_OK;
}

MrAccess mr_resolve(IrdmaDev *d, uint32_t stag, uint32_t pd, bool priv, uint64_t va,
                    uint64_t len, unsigned want, MrRange *out)
{
    const PeMr *e;
    const PeMr *parent;
    uint64_t parent_va;

    *out = (MrRange) { 0 };
    if (stag == 0) {
        if (!priv || (want & (STAG_RIGHT_REMOTE_READ | STAG_RIGHT_REMOTE_WRITE))) {
            return MR_ACCESS_INVALID_STAG;
        }
        out->phys = true;
        out->pa = va;
        return MR_ACCESS_OK;
    }
    e = mr_lookup(d, mr_stag_index(d, stag));
    if (!e || e->stag_idx != stag >> 8) {
        return MR_ACCESS_INVALID_STAG;
    }
    if (!e->is_mw) {
        out->index = e->index;
        out->stag_idx = e->stag_idx;
        return resolve_mr(e, stag, pd, va, len, want, &out->pos);
    }
    /* A window: its own key, PD, rights and bounds, then the parent MR's pages. */
    if (!e->bound) {
        return MR_ACCESS_INVALID_STAG;
    }
    if ((e->mw_type == 2 || !e->mw1_no_key_check) && e->key != (stag & 0xff)) {
        return MR_ACCESS_BAD_KEY;
    }
    if (e->pd != pd) {
        return MR_ACCESS_BAD_PD;
    }
    if ((e->bound_rights & want) != want) {
        return MR_ACCESS_RIGHTS;
    }
    parent_va = e->va_based ? va : e->bound_va + va;
    if (!in_range(parent_va, len, e->bound_va, e->bound_len)) {
        return MR_ACCESS_BOUNDS;
    }
    parent = mr_lookup(d, e->bound_mr);
    if (!parent || parent->state != MR_STATE_VALID) {
        return MR_ACCESS_INVALID_STAG;
    }
    out->index = parent->index;
    out->stag_idx = parent->stag_idx;
    if (!in_range(parent_va, len, parent->va_based ? parent->va : 0, parent->len)) {
        return MR_ACCESS_BOUNDS;
    }
    out->pos = parent->fbo + (parent->va_based ? parent_va - parent->va : parent_va);
    return MR_ACCESS_OK;
}

/* Guest address of page @n of @mr. */
static bool page_addr(IrdmaDev *d, const PeMr *mr, uint64_t n, uint64_t *pa)
{
    uint64_t leaf, v;

    switch (mr->pbl_level) {
    case PBL_LEVEL_NONE:
        *pa = mr->pa + n * mr->page_size;
        return true;
    case PBL_LEVEL_1:
        if (mr->first_pble + n > UINT32_MAX ||
            hmc_pble_read(d, mr->first_pble + n, &v) != HMC_OK) {
            return false;
        }
        break;
    default:
        if (mr->first_pble + n / PBLES_PER_LEAF > UINT32_MAX ||
            hmc_pble_read(d, mr->first_pble + n / PBLES_PER_LEAF, &leaf) != HMC_OK ||
            leaf + n % PBLES_PER_LEAF > UINT32_MAX ||
            hmc_pble_read(d, leaf + n % PBLES_PER_LEAF, &v) != HMC_OK) {
            return false;
        }
        break;
    }
    *pa = v & ~(mr->page_size - 1);
    return true;
}

/* The MR whose pages back @rg, if it is still the one resolved and valid. */
static const PeMr *range_mr(IrdmaDev *d, const MrRange *rg)
{
    const PeMr *mr = mr_lookup(d, rg->index);

    if (!mr || mr->is_mw || mr->stag_idx != rg->stag_idx || mr->state != MR_STATE_VALID) {
        return NULL;
    }
    return mr;
}

/* The guest address of byte @off of @rg and how many bytes from there, up to @len, are one
 * run of guest memory; 0 if none can be read (mr_copy() says why). */
static size_t range_run(IrdmaDev *d, const MrRange *rg, uint64_t off, size_t len, uint64_t *gpa)
{
    uint64_t pos = rg->pos + off, page, pa, next;
    const PeMr *mr;
    size_t run;

    if (rg->phys) {
        *gpa = rg->pa + off;
        return len;
    }
    mr = range_mr(d, rg);
    if (!mr || !page_addr(d, mr, pos / mr->page_size, &pa)) {
        return 0;
    }
    page = pos / mr->page_size;
    *gpa = pa + pos % mr->page_size;
    run = MIN(len, mr->page_size - pos % mr->page_size);
    /* Pages that follow each other in guest memory too (a PBL of consecutive pages). */
    while (run < len && page_addr(d, mr, ++page, &next) && next == pa + mr->page_size) {
        pa = next;
        run = MIN(len, run + mr->page_size);
    }
    return run;
}

/* One piece of guest memory to or from @buf. */
static bool dma(IrdmaDev *d, uint64_t gpa, uint8_t *buf, size_t len, bool to_guest)
{
    return to_guest ? pe_dma_write(d, gpa, buf, len) : pe_dma_read(d, gpa, buf, len);
}

MrAccess mr_copy(IrdmaDev *d, const MrRange *rg, uint64_t off, void *buf, size_t len,
                 bool to_guest, size_t *done)
{
    uint8_t *b = buf;
    size_t went = 0;
    MrAccess a = MR_ACCESS_OK;

    /* A run of pages that follow each other in guest memory is one DMA. */
    while (a == MR_ACCESS_OK && went < len) {
        uint64_t gpa;
        size_t n = range_run(d, rg, off + went, len - went, &gpa);

        if (!n) {
            a = rg->phys || range_mr(d, rg) ? MR_ACCESS_DMA : MR_ACCESS_INVALID_STAG;
        } else if (!dma(d, gpa, b + went, n, to_guest)) {
            a = MR_ACCESS_DMA;
        } else {
            went += n;
        }
    }
    if (done) {
        *done = went;
    }
    return a;
}

const void *mr_sgl_map(IrdmaDev *d, const WqeSge *sge, const MrRange *rg, unsigned n,
                       uint64_t off, size_t len, MrMapping *m)
{
    const void *p;

    for (unsigned i = 0; i < n; i++) {
        if (off >= sge[i].len) {
            off -= sge[i].len;
            continue;
        }
        m->len = range_run(d, &rg[i], off, MIN(sge[i].len - off, len), &m->gpa);
        m->map_len = m->len;
        p = m->len ? d->host.ops->dma_map(d->host.opaque, m->gpa, &m->map_len) : NULL;
        if (p) {
            m->len = MIN(m->len, m->map_len);
        }
        return p;
    }
    return NULL;
}

MrAccess mr_resolve_sgl(IrdmaDev *d, const WqeSge *sge, unsigned n, uint32_t pd, bool priv,
                        unsigned want, MrRange *rg, unsigned *bad)
{
    for (unsigned i = 0; i < n; i++) {
        MrAccess a = mr_resolve(d, sge[i].stag, pd, priv, sge[i].addr, sge[i].len, want, &rg[i]);

        if (a != MR_ACCESS_OK) {
            *bad = i;
            return a;
        }
    }
    return MR_ACCESS_OK;
}

MrAccess mr_sgl_copy(IrdmaDev *d, const WqeSge *sge, const MrRange *rg, unsigned n,
                     uint64_t off, void *buf, size_t len, bool to_guest, size_t *done)
{
    uint8_t *b = buf;
    size_t went = 0, part;
    MrAccess a = MR_ACCESS_OK;

    for (unsigned i = 0; i < n && went < len; i++) {
        if (off >= sge[i].len) {
            off -= sge[i].len;
            continue;
        }
        a = mr_copy(d, &rg[i], off, b + went, MIN(sge[i].len - off, len - went), to_guest,
                    &part);
        went += part;
        if (a != MR_ACCESS_OK) {
            break;
        }
        off = 0;
    }
    if (a == MR_ACCESS_OK && went < len) {
        a = MR_ACCESS_BOUNDS;
    }
    if (done) {
        *done = went;
    }
    return a;
}
