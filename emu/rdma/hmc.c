/* hmc.c - FPM sizing and layout, SD programming and HMC translation (see hmc.h). */
#include "rdma/hmc.h"
#include "core/trace.h"

/* What the engine can hold per object type, as QUERY_FPM_VAL reports it. The values pass
 * irdma_cfg_fpm_val in one iteration: it asks for 4096 QPs, 8192 CQs and the maxima of the
 * rest, which need 5 of the HMC_MAX_SDS SDs. Types the driver sizes from the QP count without
 * clamping (XF, Q1, HDR, TIMER, the free lists, HTE) get maxima covering what it then asks. */
typedef struct HmcObjDesc {
    const char *name;
    int query_off;             /* qword of the query buffer; -1: not reported */
    unsigned commit_off;       /* qword of the commit buffer */
    uint32_t max_cnt;
    uint64_t size;             /* bytes per object */
    uint32_t query_hi;         /* [63:32] of the query qword: log2(size), or a block size */
    uint64_t cnt_mask;         /* count field of the commit qword */
} HmcObjDesc;

#define FPM_XF_BLOCK    1
#define FPM_Q1_BLOCK    64
#define FPM_RRF_BLOCK   1
#define FPM_OOISCF_BLOCK 1
#define FPM_MAX_CEQS    PE_MAX_CEQS
#define FPM_HT_MULT     1
#define FPM_TIMER_BUCKET 1

static const HmcObjDesc obj_desc[HMC_NUM_OBJ_TYPES] = {
    [HMC_QP]       = { "QP", 8, 0, 4096, 512, 9, FPMC_QP_CNT },
    [HMC_CQ]       = { "CQ", 16, 8, 8192, 32, 5, FPMC_CQ_CNT },
    [HMC_RSVD]     = { "RSVD", -1, 16, 0, 0, 0, FPMC_CNT },
    [HMC_HTE]      = { "HTE", 32, 24, 65536, 8, 3, FPMC_CNT },
    [HMC_ARP]      = { "ARP", 40, 32, 2048, 8, 3, FPMC_CNT },
    [HMC_APBVT]    = { "APBVT", -1, 40, 1, 8192, 0, FPMC_CNT },
    [HMC_MR]       = { "MR", 48, 48, 8192, 64, 6, FPMC_CNT },
    [HMC_XF]       = { "XF", 56, 56, 1u << 20, 1, 0, FPMC_CNT },
    [HMC_XFFL]     = { "XFFL", 64, 64, 1u << 20, 4, FPM_XF_BLOCK, FPMC_CNT },
    [HMC_Q1]       = { "Q1", 72, 72, 1u << 21, 1, 0, FPMC_CNT },
    [HMC_Q1FL]     = { "Q1FL", 80, 80, 1u << 20, 4, FPM_Q1_BLOCK, FPMC_CNT },
    [HMC_TIMER]    = { "TIMER", 88, 88, 1024, 8, 3, FPMC_CNT },
    [HMC_FSIMC]    = { "FSIMC", 96, 96, 512, 8, 3, FPMC_CNT },
    [HMC_FSIAV]    = { "FSIAV", 104, 104, 8192, 32, 5, FPMC_CNT },
    [HMC_PBLE]     = { "PBLE", 112, 112, 1u << 19, 8, 0, FPMC_CNT },
    [HMC_RRF]      = { "RRF", 128, 128, 0, 1, 0, FPMC_CNT },
    [HMC_RRFFL]    = { "RRFFL", 136, 136, 0, 4, FPM_RRF_BLOCK, FPMC_CNT },
    [HMC_HDR]      = { "HDR", 144, 144, 4096, 1, 0, FPMC_CNT },
    [HMC_MD]       = { "MD", 152, 152, 0, 1, 0, FPMC_CNT },
    [HMC_OOISC]    = { "OOISC", 160, 160, 0, 1, 0, FPMC_CNT },
    [HMC_OOISCFFL] = { "OOISCFFL", 168, 168, 0, 4, FPM_OOISCF_BLOCK, FPMC_CNT },
};

/* FPM layout order: PBLE last, so its SDs (allocated lazily by the driver) end the space. */
static const HmcObjType layout_order[HMC_NUM_OBJ_TYPES] = {
    HMC_QP, HMC_CQ, HMC_RSVD, HMC_HTE, HMC_ARP, HMC_APBVT, HMC_MR, HMC_XF, HMC_XFFL, HMC_Q1,
    HMC_Q1FL, HMC_TIMER, HMC_FSIMC, HMC_FSIAV, HMC_RRF, HMC_RRFFL, HMC_HDR, HMC_MD, HMC_OOISC,
    HMC_OOISCFFL, HMC_PBLE,
};

#define HMC_OBJ_ALIGN   4096u   /* bases 4 KiB aligned: PBLE must be (pble.c) */

typedef struct HmcSd {
    bool valid;
    bool direct;               /* 2 MiB page at pa; else pa is a page of PD entries */
    uint64_t pa;
} HmcSd;

struct PeHmc {
    IrdmaDev *d;
    bool committed;
    bool static_done;          /* SHMC_PAGES_ALLOCATED seen */
    uint64_t base[HMC_NUM_OBJ_TYPES];
    uint32_t cnt[HMC_NUM_OBJ_TYPES];
    HmcSd sd[HMC_MAX_SDS];
};

PeHmc *hmc_new(IrdmaDev *d)
{
    PeHmc *hmc = g_new0(PeHmc, 1);

    hmc->d = d;
    return hmc;
}

void hmc_free(PeHmc *hmc)
{
    g_free(hmc);
}

void hmc_reset(PeHmc *hmc)
{
    IrdmaDev *d = hmc->d;

    memset(hmc, 0, sizeof(*hmc));
    hmc->d = d;
}

uint32_t hmc_obj_count(IrdmaDev *d, HmcObjType type)
{
    return d->hmc->committed && type < HMC_NUM_OBJ_TYPES ? d->hmc->cnt[type] : 0;
}

HmcStatus hmc_obj_gpa(IrdmaDev *d, HmcObjType type, uint32_t idx, uint64_t *gpa)
{
    PeHmc *hmc = d->hmc;
    uint64_t fpm, pde;
    const HmcSd *sd;

    if (!hmc->committed) {
        return HMC_NOT_COMMITTED;
    }
    if (type >= HMC_NUM_OBJ_TYPES || idx >= hmc->cnt[type]) {
        return HMC_BAD_INDEX;
    }
    fpm = hmc->base[type] + obj_desc[type].size * idx;
    if (fpm / HMC_SD_SIZE >= HMC_MAX_SDS) {
        return HMC_UNMAPPED;        /* cannot happen for a committed layout; kept as a guard */
    }
    sd = &hmc->sd[fpm / HMC_SD_SIZE];
    if (!sd->valid) {
        return HMC_UNMAPPED;
    }
    if (sd->direct) {
        *gpa = sd->pa + fpm % HMC_SD_SIZE;
        return HMC_OK;
    }
    /* Paged SD: PD entry (fpm / 4K) % 512 of the SD's PD page. */
    if (!pe_dma_read(d, sd->pa + ((fpm / HMC_PD_SIZE) % HMC_PDS_PER_SD) * 8, &pde, 8)) {
        return HMC_UNMAPPED;
    }
    pde = ld64(&pde);
    if (!(pde & PD_ENTRY_VALID)) {
        return HMC_UNMAPPED;
    }
    *gpa = (pde & PD_ENTRY_PA) + fpm % HMC_PD_SIZE;
    return HMC_OK;
}

void hmc_status_fail(HmcStatus st, CqpResult *r)
{
    switch (st) {
    case HMC_OK:
        break;
    case HMC_NOT_COMMITTED:
        cqp_fail(r, CQP_MAJ_OBJCACHE_ERROR, CQP_MIN_HMC_NOT_COMMITTED);
        break;
    case HMC_BAD_INDEX:
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        break;
    case HMC_UNMAPPED:
        cqp_fail(r, CQP_MAJ_OBJCACHE_ERROR, CQP_MIN_HMC_UNMAPPED);
        break;
    }
}

HmcStatus hmc_pble_read(IrdmaDev *d, uint32_t idx, uint64_t *val)
{
    uint64_t gpa, raw;
    HmcStatus st = hmc_obj_gpa(d, HMC_PBLE, idx, &gpa);

    if (st != HMC_OK) {
        return st;
    }
    if (!pe_dma_read(d, gpa, &raw, 8)) {
        return HMC_UNMAPPED;
    }
    *val = ld64(&raw);
    return HMC_OK;
}

HmcStatus hmc_queue_gpa(IrdmaDev *d, const PeQueueMap *m, uint64_t off, uint64_t *gpa)
{
    uint64_t page;
    HmcStatus st;

    if (!m->virt) {
        *gpa = m->pa + off;
        return HMC_OK;
    }
    if ((uint64_t)m->first_pble + off / HMC_PD_SIZE > UINT32_MAX) {
        return HMC_BAD_INDEX;
    }
    st = hmc_pble_read(d, m->first_pble + off / HMC_PD_SIZE, &page);
    if (st == HMC_OK) {
        *gpa = (page & ~(uint64_t)(HMC_PD_SIZE - 1)) + off % HMC_PD_SIZE;
    }
    return st;
}

HmcStatus hmc_queue_check(IrdmaDev *d, const PeQueueMap *m, uint64_t bytes)
{
    uint64_t pages = (bytes + HMC_PD_SIZE - 1) / HMC_PD_SIZE;
    uint64_t gpa;

    if (!m->virt) {
        return HMC_OK;
    }
    if (pages == 0 || m->first_pble + pages - 1 >= hmc_obj_count(d, HMC_PBLE)) {
        return d->hmc->committed ? HMC_BAD_INDEX : HMC_NOT_COMMITTED;
    }
    /* First and last PBLE must be reachable; the pages between are resolved per access. */
    if (hmc_obj_gpa(d, HMC_PBLE, m->first_pble, &gpa) != HMC_OK) {
        return HMC_UNMAPPED;
    }
    return hmc_obj_gpa(d, HMC_PBLE, m->first_pble + pages - 1, &gpa);
}

static bool fn_id_ok(IrdmaDev *d, uint64_t fn, CqpResult *r, const char *op)
{
    if (fn != PE_PF_HMC_FN_ID) {
        emu_trace(&d->host, TR_ERR_HMC_BAD_FN, "%s hmc_fn_id=%" G_GINT64_MODIFIER "u", op, fn);
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ID);
        return false;
    }
    return true;
}

/* Buffer address of a FPM op, or false (and @r failed) if it is misaligned. */
static bool fpm_buf_addr(const CqpWqe *w, uint64_t *pa, CqpResult *r)
{
    *pa = cqp_qw(w, CQPWQE_FPM_BUF_OFF);
    if (*pa % FPM_BUF_ALIGN) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        return false;
    }
    return true;
}

static void op_query_fpm_val(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    uint8_t buf[FPM_BUF_SIZE] = { 0 };
    uint64_t pa;

    if (!fn_id_ok(d, pe_get(cqp_qw(w, CQPWQE_FPM_FN_OFF), CQPWQE_HMC_FN_ID), r, "QUERY_FPM") ||
        !fpm_buf_addr(w, &pa, r)) {
        return;
    }
    st64(buf + FPMQ_SD_OFF, pe_prep(FPMQ_FIRST_PE_SD_INDEX, 0) |
                            pe_prep(FPMQ_MAX_PE_SDS, HMC_MAX_SDS));
    for (unsigned t = 0; t < HMC_NUM_OBJ_TYPES; t++) {
        const HmcObjDesc *o = &obj_desc[t];

        if (o->query_off >= 0) {
            st64(buf + o->query_off, pe_prep(FPMQ_MAX_CNT, o->max_cnt) |
                                     pe_prep(FPMQ_SIZE_EXP, o->query_hi));
        }
    }
    st64(buf + FPMQ_MISC_OFF, pe_prep(FPMQ_MAX_CEQS, FPM_MAX_CEQS) |
                              pe_prep(FPMQ_HTMULTIPLIER, FPM_HT_MULT) |
                              pe_prep(FPMQ_TIMERBUCKET, FPM_TIMER_BUCKET));
    if (!pe_dma_write(d, pa, buf, sizeof(buf))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
    }
}

static void op_commit_fpm_val(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeHmc *hmc = d->hmc;
    uint8_t buf[FPM_BUF_SIZE];
    uint32_t cnt[HMC_NUM_OBJ_TYPES];
    uint64_t base[HMC_NUM_OBJ_TYPES] = { 0 };
    uint64_t pa, cursor = 0;

    if (!fn_id_ok(d, pe_get(cqp_qw(w, CQPWQE_FPM_FN_OFF), CQPWQE_HMC_FN_ID), r, "COMMIT_FPM") ||
        !fpm_buf_addr(w, &pa, r)) {
        return;
    }
    if (pe_get(w->hdr, CQPWQE_BUFSIZE) < FPM_BUF_SIZE) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    if (hmc->static_done) {
        /* The layout is fixed once the static pages are in place. */
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_INVALID_STATE);
        return;
    }
    if (!pe_dma_read(d, pa, buf, sizeof(buf))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        return;
    }
    for (unsigned t = 0; t < HMC_NUM_OBJ_TYPES; t++) {
        uint64_t qw = ld64(buf + obj_desc[t].commit_off);

        /* The driver writes a plain count; anything above the count field is not a count. */
        if (qw & ~obj_desc[t].cnt_mask || qw > obj_desc[t].max_cnt) {
            emu_trace(&d->host, TR_ERR_HMC_COMMIT_BAD_COUNT, "%s count=0x%" G_GINT64_MODIFIER
                      "x max=%u", obj_desc[t].name, qw, obj_desc[t].max_cnt);
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
            return;
        }
        cnt[t] = qw;
    }
    /* The driver writes 0 into the APBVT slot but always uses one APBVT table (it forces the
     * count to 1 when it reads the reply), so the table is always placed. */
    cnt[HMC_APBVT] = 1;
    for (unsigned i = 0; i < HMC_NUM_OBJ_TYPES; i++) {
        HmcObjType t = layout_order[i];

        /* An empty type gets base 0: the driver sizes the FPM from the highest base. */
        if (cnt[t]) {
            base[t] = (cursor + HMC_OBJ_ALIGN - 1) / HMC_OBJ_ALIGN * HMC_OBJ_ALIGN;
            cursor = base[t] + obj_desc[t].size * cnt[t];
        }
    }
    if (cursor > (uint64_t)HMC_MAX_SDS * HMC_SD_SIZE) {
        emu_trace(&d->host, TR_ERR_HMC_COMMIT_TOO_BIG, "FPM of %" G_GINT64_MODIFIER
                  "u bytes > %u SDs", cursor, HMC_MAX_SDS);
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    for (unsigned t = 0; t < HMC_NUM_OBJ_TYPES; t++) {
        st64(buf + obj_desc[t].commit_off, pe_prep(FPMC_BASE, base[t] / FPM_BASE_UNIT) |
                                           pe_prep(obj_desc[t].cnt_mask, cnt[t]));
        hmc->base[t] = base[t];
        hmc->cnt[t] = cnt[t];
    }
    if (!pe_dma_write(d, pa, buf, sizeof(buf))) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
        return;
    }
    hmc->committed = true;
    emu_trace(&d->host, TR_HMC_COMMIT, "QP=%u CQ=%u MR=%u PBLE=%u at 0x%" G_GINT64_MODIFIER
              "x: %" G_GINT64_MODIFIER "u bytes of FPM", cnt[HMC_QP], cnt[HMC_CQ], cnt[HMC_MR],
              cnt[HMC_PBLE], base[HMC_PBLE], cursor);
}

typedef struct SdEntry {
    uint64_t cmd, data;
} SdEntry;

static void op_update_pe_sds(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeHmc *hmc = d->hmc;
    SdEntry e[SDS_WQE_ENTRIES + SDS_BUF_ENTRIES_MAX];
    uint8_t raw[SDS_BUF_ENTRIES_MAX * SDS_BUF_ENTRY_SIZE];
    uint64_t bufq = cqp_qw(w, CQPWQE_SDS_BUF_OFF);
    unsigned n = 0, extra = pe_get(w->hdr, CQPWQE_SDS_ENTRY_COUNT);

    if (!fn_id_ok(d, pe_get(bufq, CQPWQE_HMC_FN_ID), r, "UPDATE_PE_SDS")) {
        return;
    }
    /* Entry 0 is always present; 1 and 2 carry ENTRY_VALID; then @extra from the buffer. */
    e[n++] = (SdEntry) { cqp_qw(w, CQPWQE_SDS_E0_CMD_OFF), cqp_qw(w, CQPWQE_SDS_E0_DATA_OFF) };
    if (cqp_qw(w, CQPWQE_SDS_E1_CMD_OFF) & CQPWQE_SDS_ENTRY_VALID) {
        e[n++] = (SdEntry) { cqp_qw(w, CQPWQE_SDS_E1_CMD_OFF), cqp_qw(w, CQPWQE_SDS_E1_DATA_OFF) };
    }
    if (cqp_qw(w, CQPWQE_SDS_E2_CMD_OFF) & CQPWQE_SDS_ENTRY_VALID) {
        e[n++] = (SdEntry) { cqp_qw(w, CQPWQE_SDS_E2_CMD_OFF), cqp_qw(w, CQPWQE_SDS_E2_DATA_OFF) };
    }
    if (extra > SDS_BUF_ENTRIES_MAX) {
        cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_SIZE);
        return;
    }
    if (extra) {
        if (!pe_dma_read(d, bufq & CQPWQE_SDS_BUF_PA, raw, extra * SDS_BUF_ENTRY_SIZE)) {
            cqp_fail(r, CQP_MAJ_ERROR, CQP_MIN_BAD_ADDR);
            return;
        }
        for (unsigned i = 0; i < extra; i++) {
            e[n++] = (SdEntry) { ld64(raw + i * SDS_BUF_ENTRY_SIZE),
                                 ld64(raw + i * SDS_BUF_ENTRY_SIZE + 8) };
        }
    }
    /* All entries are checked before any is applied: a bad WQE changes nothing. */
    for (unsigned i = 0; i < n; i++) {
        uint64_t idx = pe_get(e[i].cmd, SD_CMD_IDX);

        if (!(e[i].cmd & SD_CMD_WRITE) || idx >= HMC_MAX_SDS) {
            emu_trace(&d->host, TR_ERR_HMC_SD_BAD_ENTRY, "entry %u cmd=0x%08" G_GINT64_MODIFIER "x",
                      i, e[i].cmd & 0xffffffffu);
            cqp_fail(r, CQP_MAJ_ERROR, (e[i].cmd & SD_CMD_WRITE) ? CQP_MIN_BAD_ID
                                                                 : CQP_MIN_BAD_FIELD);
            return;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        HmcSd *sd = &hmc->sd[pe_get(e[i].cmd, SD_CMD_IDX)];

        sd->valid = e[i].data & SD_DATA_VALID;
        sd->direct = e[i].data & SD_DATA_DIRECT;
        sd->pa = sd->valid ? (e[i].data & SD_DATA_PA) : 0;
        emu_trace(&d->host, TR_HMC_SD, "sd %u %s %s pa=0x%" G_GINT64_MODIFIER "x",
                  (unsigned)pe_get(e[i].cmd, SD_CMD_IDX), sd->valid ? "set" : "clear",
                  sd->direct ? "direct" : "paged", sd->pa);
    }
}

static void op_shmc_pages_allocated(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    if (!fn_id_ok(d, pe_get(cqp_qw(w, CQPWQE_SHMC_FN_OFF), CQPWQE_HMC_FN_ID), r, "SHMC")) {
        return;
    }
    if (!d->hmc->committed) {
        cqp_fail(r, CQP_MAJ_OBJCACHE_ERROR, CQP_MIN_HMC_NOT_COMMITTED);
        return;
    }
    d->hmc->static_done = true;
}

static const CqpOp hmc_ops[] = {
    { CQP_OP_UPDATE_PE_SDS, "UPDATE_PE_SDS", op_update_pe_sds, CQP_OBJ_NONE },
    { CQP_OP_QUERY_FPM_VAL, "QUERY_FPM_VAL", op_query_fpm_val, CQP_OBJ_NONE },
    { CQP_OP_COMMIT_FPM_VAL, "COMMIT_FPM_VAL", op_commit_fpm_val, CQP_OBJ_NONE },
    { CQP_OP_SHMC_PAGES_ALLOCATED, "SHMC_PAGES_ALLOCATED", op_shmc_pages_allocated, CQP_OBJ_NONE },
};

const CqpOpTable hmc_cqp_ops = { hmc_ops, G_N_ELEMENTS(hmc_ops) };
