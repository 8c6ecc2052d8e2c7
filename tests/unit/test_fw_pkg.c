/* test_fw_pkg.c - AQ handlers of fw/pkg.c: good commands, and malformed ones answered with the
 * firmware's error codes; and the synthetic package of tools/ddp_gen.c, re-parsed by a checker
 * that follows ice 6.1's package rules (ice_flex_pipe.c).
 *
 * The checker and the buffer builder below use their own offsets, written from the driver's
 * structures (ice_flex_type.h, ice_adminq_cmd.h), not emu/fw/ddp_format.h: a wrong constant there
 * would otherwise be wrong in the generator and in its test alike. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw/fw.h"
#include "emu/core/le.h"
#include "tools/ddp_gen.h"

/* ---- the driver's view of a package ---- */

#define BUF_SZ          4096    /* ICE_PKG_BUF_SIZE */
#define SEG_HDR_SZ      44      /* struct ice_generic_seg_hdr */
#define META_BIT        0x80000000u
#define SID_METADATA    1
#define SID_META_INIT   58
#define SID_LBL_TMEM    0x80000018u
#define SID_BOOST_TCAM  56      /* ICE_SID_RXPARSER_BOOST_TCAM */
#define LABEL_SZ        66      /* struct ice_label: __le16 value; char name[64] */
#define BOOST_SZ        88      /* struct ice_boost_tcam_entry */

typedef struct PkgCheck {
    uint8_t ver[4];
    uint8_t name[32];           /* hw->pkg_name: 28 bytes of the section, zero padded */
    uint32_t track_id;
    uint8_t seg_fmt[4];
    const uint8_t *bufs;
    uint32_t nbufs;
    bool needs_download;
    unsigned dl_count;          /* buffers ice_dwnld_cfg_bufs sends */
    unsigned vxlan_pf0, geneve_pf0; /* PF 0's tunnel hints with a boost TCAM entry */
} PkgCheck;

/* Section @i of buffer @b: type, offset, size. */
static void sect_entry(const uint8_t *b, unsigned i, uint32_t *type, unsigned *off, unsigned *size)
{
    const uint8_t *e = b + 4 + 8 * i;

    *type = ld32(e);
    *off = ld16(e + 4);
    *size = ld16(e + 6);
}

/* The next section of @type after (@bi, @si) in the package's buffers (ice_pkg_enum_section):
 * its data and size; false when there is none. Start with *bi = 0, *si = 0. */
static bool next_section(const PkgCheck *pc, uint32_t want, uint32_t *bi, unsigned *si,
                         const uint8_t **data, unsigned *size)
{
    for (; *bi < pc->nbufs; (*bi)++, *si = 0) {
        const uint8_t *b = pc->bufs + (size_t)*bi * BUF_SZ;

        while (*si < ld16(b)) {
            uint32_t type;
            unsigned off;

            sect_entry(b, (*si)++, &type, &off, size);
            if (type == want) {
                *data = b + off;
                return true;
            }
        }
    }
    return false;
}

/* Whether some Rx boost TCAM section of the package has an entry at @addr
 * (ice_find_boost_entry). */
static bool boost_entry(const PkgCheck *pc, unsigned addr)
{
    uint32_t bi = 0;
    unsigned si = 0, size;
    const uint8_t *t;

    while (next_section(pc, SID_BOOST_TCAM, &bi, &si, &t, &size)) {
        for (unsigned i = 0; i < ld16(t) && 4 + (i + 1) * BOOST_SZ <= size; i++) {
            if (ld16(t + 4 + i * BOOST_SZ) == addr) {
                return true;
            }
        }
    }
    return false;
}

/* ice_init_pkg_hints for PF 0: "TNL_VXLAN_PF0" / "TNL_GENEVE_PF0" labels whose value names a
 * boost TCAM entry each give the UDP tunnel table an entry. */
static void tunnel_hints(PkgCheck *pc)
{
    uint32_t bi = 0;
    unsigned si = 0, size;
    const uint8_t *l;

    pc->vxlan_pf0 = pc->geneve_pf0 = 0;
    while (next_section(pc, SID_LBL_TMEM, &bi, &si, &l, &size)) {
        for (unsigned i = 0; i < ld16(l); i++) {
            const uint8_t *e = l + 2 + i * LABEL_SZ;

            if (boost_entry(pc, ld16(e))) {
                pc->vxlan_pf0 += !strcmp((const char *)e + 2, "TNL_VXLAN_PF0");
                pc->geneve_pf0 += !strcmp((const char *)e + 2, "TNL_GENEVE_PF0");
            }
        }
    }
}

/* NULL if ice 6.1 accepts @p as its package file (ice_init_pkg up to the AQ calls), else the
 * rule it breaks. Stricter than the driver where the driver reads without checking. */
static const char *pkg_check(const uint8_t *p, size_t len, PkgCheck *pc)
{
    const uint8_t *seg = NULL;
    uint64_t seg_size = 0, at, dev_count, nvm_count;
    uint32_t seg_count;
    bool have_meta = false;

    memset(pc, 0, sizeof(*pc));
    /* ice_verify_pkg: header with one segment offset, format 1.0.0.0, >= 1 segment, the
     * offset array, each segment header and each segment body inside the file. */
    if (len < 12) {
        return "shorter than a package header";
    }
    if (p[0] != 1 || p[1] != 0 || p[2] != 0 || p[3] != 0) {
        return "format version is not 1.0.0.0";
    }
    seg_count = ld32(p + 4);
    if (seg_count < 1) {
        return "no segment";
    }
    if (len < 8 + 4 * (uint64_t)seg_count) {
        return "segment offsets past the end";
    }
    for (uint32_t i = 0; i < seg_count; i++) {
        uint64_t off = ld32(p + 8 + 4 * i);

        if (len < off + SEG_HDR_SZ) {
            return "segment header past the end";
        }
        if (len < off + ld32(p + off + 8)) {
            return "segment body past the end";
        }
    }
    /* ice_find_seg_in_pkg: the first segment of type ICE (0x10). */
    for (uint32_t i = 0; i < seg_count && !seg; i++) {
        const uint8_t *s = p + ld32(p + 8 + 4 * i);

        if (ld32(s) == 0x10) {
            seg = s;
            seg_size = ld32(s + 8);
        }
    }
    if (!seg) {
        return "no ICE segment";
    }
    memcpy(pc->seg_fmt, seg + 4, 4);
    /* ice_find_buf_table: device table (8-byte entries), NVM table (4-byte entries), buffer
     * table. The driver trusts these counts; the checker wants them inside the segment. */
    at = SEG_HDR_SZ;
    if (at + 4 > seg_size) {
        return "device table past the segment";
    }
    dev_count = ld32(seg + at);
    at += 4 + 8 * dev_count;
    if (at + 4 > seg_size) {
        return "NVM table past the segment";
    }
    nvm_count = ld32(seg + at);
    at += 4 + 4 * nvm_count;
    if (at + 4 > seg_size) {
        return "buffer table past the segment";
    }
    pc->nbufs = ld32(seg + at);
    pc->bufs = seg + at + 4;
    if (pc->nbufs < 1) {
        return "no buffer (ice_dwnld_cfg_bufs fails on count 0)";
    }
    if (at + 4 + (uint64_t)pc->nbufs * BUF_SZ > seg_size) {
        return "buffers past the segment";
    }
    /* ice_pkg_enum_buf / ice_pkg_val_buf on every buffer, ice_pkg_enum_section on every
     * section: count 1..511, data_end 12..4096, offset 12..4095, size 1..4084, inside 4 KiB. */
    for (uint32_t bi = 0; bi < pc->nbufs; bi++) {
        const uint8_t *b = pc->bufs + (size_t)bi * BUF_SZ;
        unsigned count = ld16(b), data_end = ld16(b + 2);

        if (count < 1 || count > 511) {
            return "buffer section count outside 1..511";
        }
        if (data_end < 12 || data_end > 4096) {
            return "buffer data_end outside 12..4096";
        }
        for (unsigned si = 0; si < count; si++) {
            uint32_t type;
            unsigned off, size;

            sect_entry(b, si, &type, &off, &size);
            if (off < 12 || off > 4095 || size < 1 || size > 4084 || off + size > 4096) {
                return "section outside its buffer";
            }
            /* ice_init_pkg_info: the first metadata section, read as struct ice_meta_sect. */
            if (type == SID_METADATA && !have_meta) {
                if (size < 36) {
                    return "metadata section shorter than ice_meta_sect";
                }
                memcpy(pc->ver, b + off, 4);
                memcpy(pc->name, b + off + 4, 28);
                pc->track_id = ld32(b + off + 32);
                have_meta = true;
            }
            /* ice_init_pkg_hints reads label sections as { count; { value; name[64] }[] }. */
            if (type == SID_LBL_TMEM && (size < 2 || 2 + 66u * ld16(b + off) > size)) {
                return "label section entries past the section";
            }
        }
    }
    if (!have_meta) {
        return "no metadata section";
    }
    tunnel_hints(pc);
    /* ice_chk_pkg_version: major.minor exactly 1.3. */
    if (pc->ver[0] != 1 || pc->ver[1] != 3) {
        return "package version is not 1.3.x.x";
    }
    /* ice_dwnld_cfg_bufs: nothing to send if the first buffer's first section is metadata;
     * else buffers up to the one before the first metadata buffer, that one flagged last. */
    pc->needs_download = !(ld32(pc->bufs + 4) & META_BIT);
    if (pc->needs_download) {
        for (uint32_t i = 0; i < pc->nbufs; i++) {
            const uint8_t *next = pc->bufs + (size_t)(i + 1) * BUF_SZ;

            pc->dl_count++;
            if (i + 1 == pc->nbufs || (ld16(next) && (ld32(next + 4) & META_BIT))) {
                break;
            }
        }
    }
    return NULL;
}

/* Send the package's configuration buffers as ice_dwnld_cfg_bufs does; the first failing
 * return code, or OK. */
static uint16_t download_like_ice(const PkgCheck *pc)
{
    for (unsigned i = 0; i < pc->dl_count; i++) {
        uint8_t params[AQ_PARAMS_SIZE] = { 0 };
        uint8_t buf[BUF_SZ];
        uint16_t rc;

        memcpy(buf, pc->bufs + (size_t)i * BUF_SZ, BUF_SZ);
        params[0] = (i + 1 == pc->dl_count) ? 0x01 : 0;
        rc = aqt_send(h, d, AQC_DOWNLOAD_PKG, AQ_FLAG_RD, params, buf, BUF_SZ, NULL);
        if (rc) {
            return rc;
        }
    }
    return AQ_RC_OK;
}

/* ---- 0x0C43 as ice reads it ---- */

#define INFO_BUF_SZ     (4 + 40 * 4)    /* struct_size(pkg_info, pkg_info, ICE_PKG_CNT) */

typedef enum { ST_SUCCESS, ST_NOT_SUPPORTED, ST_COMPATIBLE, ST_FW_MISMATCH } DdpState;

static const uint8_t *info_entry(const uint8_t *resp, unsigned i)
{
    return resp + 4 + 40 * i;
}

static void get_info(uint8_t resp[INFO_BUF_SZ])
{
    memset(resp, 0, INFO_BUF_SZ);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PKG_INFO_LIST, 0, NULL, resp, INFO_BUF_SZ, NULL),
                      AQ_RC_OK);
}

/* ice_chk_pkg_compat's NVM check, then ice_get_pkg_info + ice_get_ddp_pkg_state. */
static DdpState ddp_state(const PkgCheck *pc, const uint8_t *resp)
{
    uint8_t active_ver[4] = { 0 }, active_name[32] = { 0 };
    uint32_t n = ld32(resp);

    for (uint32_t i = 0; i < n && i < 4; i++) {
        const uint8_t *e = info_entry(resp, i);

        if (e[36] && (pc->seg_fmt[0] != e[0] || pc->seg_fmt[1] > e[1])) {
            return ST_FW_MISMATCH;
        }
    }
    for (uint32_t i = 0; i < n && i < 4; i++) {
        const uint8_t *e = info_entry(resp, i);

        if (e[37]) {
            memcpy(active_ver, e, 4);
            memcpy(active_name, e + 4, 28);
        }
    }
    if (!memcmp(pc->ver, active_ver, 4) && !memcmp(pc->name, active_name, 32)) {
        return ST_SUCCESS;
    }
    if (active_ver[0] != 1 || active_ver[1] != 3) {
        return ST_NOT_SUPPORTED;
    }
    return ST_COMPATIBLE;
}

static void ck_info_entry(const uint8_t *e, const uint8_t ver[4], const char *name,
                          bool active, bool at_boot)
{
    char padded[28] = { 0 };

    memcpy(padded, name, MIN(strlen(name), sizeof(padded)));
    ck_assert_mem_eq(e, ver, 4);
    ck_assert_mem_eq(e + 4, padded, 28);
    ck_assert_uint_eq(e[36], 0);            /* is_in_nvm */
    ck_assert_uint_eq(e[37], active);
    ck_assert_uint_eq(e[38], at_boot);
}

static const uint8_t synth_ver[4] = {
    DDP_SYNTH_VER_MAJOR, DDP_SYNTH_VER_MINOR, DDP_SYNTH_VER_UPDATE, DDP_SYNTH_VER_DRAFT,
};

/* ---- package buffers built as ice_pkg_buf_alloc / _reserve_section / _alloc_section do ---- */

typedef struct TBuf {
    uint8_t b[BUF_SZ];
    unsigned reserved;
} TBuf;

static void tbuf_init(TBuf *t, unsigned sections)
{
    memset(t, 0, sizeof(*t));
    t->reserved = sections;
    st16(t->b + 2, 4 + 8 * sections);
}

static uint8_t *tbuf_add(TBuf *t, uint32_t type, uint16_t size)
{
    unsigned n = ld16(t->b), off = (ld16(t->b + 2) + 3) & ~3u;

    ck_assert_uint_lt(n, t->reserved);
    ck_assert_uint_le(off + size, BUF_SZ);
    st32(t->b + 4 + 8 * n, type);
    st16(t->b + 4 + 8 * n + 4, off);
    st16(t->b + 4 + 8 * n + 6, size);
    st16(t->b, n + 1);
    st16(t->b + 2, off + size);
    return t->b + off;
}

static unsigned tbuf_data_end(const TBuf *t)
{
    return ld16(t->b + 2);
}

static void tbuf_add_meta(TBuf *t, const uint8_t ver[4], const char *name)
{
    uint8_t *m = tbuf_add(t, SID_METADATA, 36);

    memcpy(m, ver, 4);
    strncpy((char *)m + 4, name, 28);
    st32(m + 32, 0x12345678);
}

/* Send one download buffer; the response buffer lands back in @t. */
static uint16_t send_dl(TBuf *t, bool last, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = last ? 0x01 : 0;
    return aqt_send(h, d, AQC_DOWNLOAD_PKG, AQ_FLAG_RD, params, t->b, BUF_SZ, r);
}

static uint16_t send_update(TBuf *t, uint16_t len, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = 0x01;       /* ice_update_pkg_no_lock: one buffer, last */
    return aqt_send(h, d, AQC_UPDATE_PKG, AQ_FLAG_RD, params, t->b, len, r);
}

static void ck_active_is_boot(void)
{
    uint8_t resp[INFO_BUF_SZ];

    get_info(resp);
    ck_assert_uint_eq(ld32(resp), 1);
    ck_info_entry(info_entry(resp, 0), synth_ver, DDP_SYNTH_NAME, true, true);
}

/* ---- the generated package ---- */

START_TEST(generated_package_passes_driver_checks)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    uint8_t name[32] = DDP_SYNTH_NAME;
    const char *err;

    ddp_gen_spec_default(&spec);
    pkg = ddp_gen_build(&spec, &len);
    ck_assert_uint_eq(len, 4164);
    err = pkg_check(pkg, len, &pc);
    ck_assert_msg(err == NULL, "%s", err);
    /* One VXLAN and one GENEVE port for PF 0: ice's netdev has UDP tunnel tables, which the
     * kernel requires once udp_tunnel is loaded (rxe, vxlan). */
    ck_assert_uint_eq(pc.vxlan_pf0, 1);
    ck_assert_uint_eq(pc.geneve_pf0, 1);
    ck_assert_mem_eq(pc.ver, synth_ver, 4);
    ck_assert_mem_eq(pc.name, name, 32);
    ck_assert_uint_eq(pc.track_id, DDP_SYNTH_TRACK_ID);
    ck_assert_uint_eq(pc.nbufs, 1);
    ck_assert(!pc.needs_download);
}
END_TEST

START_TEST(download_variant_sends_one_buffer)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    const char *err;

    ddp_gen_spec_default(&spec);
    spec.download = true;
    pkg = ddp_gen_build(&spec, &len);
    err = pkg_check(pkg, len, &pc);
    ck_assert_msg(err == NULL, "%s", err);
    ck_assert_uint_eq(pc.nbufs, 2);
    ck_assert(pc.needs_download);
    ck_assert_uint_eq(pc.dl_count, 1);
    ck_assert_uint_eq(pc.vxlan_pf0, 1);
    ck_assert_uint_eq(pc.geneve_pf0, 1);
}
END_TEST

START_TEST(generator_options_and_their_errors)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    uint8_t ver[4] = { 9, 9, 9, 9 }, want[4] = { 1, 3, 42, 7 };
    uint8_t name[32] = "custom";

    ddp_gen_spec_default(&spec);
    ck_assert(ddp_gen_parse_version("1.3.42.7", spec.ver, NULL));
    ck_assert(ddp_gen_set_name(&spec, "custom", NULL));
    spec.track_id = 77;
    pkg = ddp_gen_build(&spec, &len);
    ck_assert_ptr_null(pkg_check(pkg, len, &pc));
    ck_assert_mem_eq(pc.ver, want, 4);
    ck_assert_mem_eq(pc.name, name, 32);
    ck_assert_uint_eq(pc.track_id, 77);

    for (const char *const *v = (const char *const[]) { "1.3.256.0", "1.3.0", "1.3.0.0.0",
                                                      "a.b.c.d", "", "1..3.0", NULL };
         *v; v++) {
        g_autoptr(GError) e = NULL;

        ck_assert_msg(!ddp_gen_parse_version(*v, ver, &e), "accepted '%s'", *v);
        ck_assert_ptr_nonnull(e);
    }
    ck_assert_uint_eq(ver[0], 9);           /* untouched on error */
    ck_assert(!ddp_gen_set_name(&spec, "", NULL));
    ck_assert(!ddp_gen_set_name(&spec, "0123456789012345678901234567", NULL));
    ck_assert(ddp_gen_set_name(&spec, "012345678901234567890123456", NULL));
    ck_assert(!ddp_gen_set_name(&spec, "tab\there", NULL));
}
END_TEST

/* The checker catches what the driver rejects (so its "accepted" above means something). */
START_TEST(checker_rejects_broken_packages)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *good = NULL;
    uint8_t *p;
    const size_t buf0 = 12 + SEG_HDR_SZ + 12;

    ddp_gen_spec_default(&spec);
    good = ddp_gen_build(&spec, &len);
    p = g_malloc(len);

#define BROKEN(mutation, expect) do {                                   \
        memcpy(p, good, len);                                           \
        mutation;                                                       \
        const char *why = pkg_check(p, len, &pc);                       \
        ck_assert_msg(why && strstr(why, expect), "%s: got %s", #mutation, why); \
    } while (0)

    BROKEN(p[1] = 1, "format version");
    BROKEN(st32(p + 4, 0), "no segment");
    BROKEN(st32(p + 4, 2000), "segment offsets");
    BROKEN(st32(p + 8, len - 10), "segment header");
    BROKEN(st32(p + 12 + 8, len), "segment body");
    BROKEN(st32(p + 12, 0x1), "no ICE segment");
    BROKEN(st32(p + 12 + SEG_HDR_SZ + 8, 2), "buffers past");
    BROKEN(st32(p + 12 + SEG_HDR_SZ + 8, 0), "no buffer");
    BROKEN(st16(p + buf0, 0), "section count");
    BROKEN(st16(p + buf0 + 2, 4097), "data_end");
    BROKEN(st16(p + buf0 + 4 + 8 + 4, 4090), "outside its buffer");
    BROKEN(st16(p + buf0 + 4 + 6, 0), "outside its buffer");
    BROKEN(st32(p + buf0 + 4 + 8, 2), "no metadata");
    /* Section 0 is the label section, section 1 the metadata. */
    BROKEN(p[buf0 + ld16(good + buf0 + 4 + 8 + 4) + 1] = 2, "not 1.3");
    BROKEN(st16(p + buf0 + ld16(good + buf0 + 4 + 4), 100), "label section");
#undef BROKEN
    g_free(p);
}
END_TEST

/* ---- 0x0C43 get_pkg_info_list ---- */

START_TEST(pkg_info_reports_the_synthetic_package_as_active)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    uint8_t resp[INFO_BUF_SZ];
    AqtResp r;

    memset(resp, 0xee, sizeof(resp));
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PKG_INFO_LIST, 0, NULL, resp, INFO_BUF_SZ, &r),
                      AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 44);
    ck_assert_uint_eq(ld32(resp), 1);
    ck_info_entry(info_entry(resp, 0), synth_ver, DDP_SYNTH_NAME, true, true);
    ck_assert_uint_eq(ld32(info_entry(resp, 0) + 32), DDP_SYNTH_TRACK_ID);
    ck_assert_uint_eq(info_entry(resp, 0)[39], 0);  /* not modified */

    /* What ice concludes from the file and this answer: "successfully loaded". */
    ddp_gen_spec_default(&spec);
    pkg = ddp_gen_build(&spec, &len);
    ck_assert_ptr_null(pkg_check(pkg, len, &pc));
    ck_assert_int_eq(ddp_state(&pc, resp), ST_SUCCESS);
    ck_assert_uint_ge(fake_host_trace_count(h, "fw_pkg_info: active 'irdma-sim synthetic DDP'"), 1);
}
END_TEST

START_TEST(pkg_info_other_1_3_file_is_compatible)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    uint8_t resp[INFO_BUF_SZ];

    ddp_gen_spec_default(&spec);
    ck_assert(ddp_gen_set_name(&spec, "other name", NULL));
    pkg = ddp_gen_build(&spec, &len);
    ck_assert_ptr_null(pkg_check(pkg, len, &pc));
    get_info(resp);
    ck_assert_int_eq(ddp_state(&pc, resp), ST_COMPATIBLE);
}
END_TEST

START_TEST(pkg_info_buffer_sizes)
{
    uint8_t resp[64] = { 0 };
    AqtResp r;

    /* One entry fits in 44 bytes. */
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PKG_INFO_LIST, 0, NULL, resp, 44, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld32(resp), 1);
    ck_assert_uint_eq(r.datalen, 44);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PKG_INFO_LIST, 0, NULL, resp, 43, NULL),
                      AQ_RC_EINVAL);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PKG_INFO_LIST, 0, NULL, NULL, 0, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

/* ---- 0x0C40 download_pkg ---- */

START_TEST(download_of_generated_package_becomes_active)
{
    DdpGenSpec spec;
    PkgCheck pc;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    uint8_t resp[INFO_BUF_SZ], want[4] = { 1, 3, 42, 7 };

    ddp_gen_spec_default(&spec);
    spec.download = true;
    ck_assert(ddp_gen_parse_version("1.3.42.7", spec.ver, NULL));
    ck_assert(ddp_gen_set_name(&spec, "downloaded package", NULL));
    pkg = ddp_gen_build(&spec, &len);
    ck_assert_ptr_null(pkg_check(pkg, len, &pc));
    ck_assert_uint_eq(download_like_ice(&pc), AQ_RC_OK);

    get_info(resp);
    ck_assert_uint_eq(ld32(resp), 2);
    ck_info_entry(info_entry(resp, 0), want, "downloaded package", true, false);
    ck_info_entry(info_entry(resp, 1), synth_ver, DDP_SYNTH_NAME, false, true);
    ck_assert_int_eq(ddp_state(&pc, resp), ST_SUCCESS);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_activated: 'downloaded package' 1.3.42.7"), 1);
}
END_TEST

START_TEST(download_activates_on_the_last_buffer)
{
    TBuf a, b;
    uint8_t resp[INFO_BUF_SZ], ver[4] = { 1, 3, 5, 0 };
    AqtResp r;

    tbuf_init(&a, 2);
    tbuf_add_meta(&a, ver, "two buffers");
    tbuf_add(&a, 10, 8);                    /* XLT0 of the switch block */
    tbuf_init(&b, 1);
    tbuf_add(&b, 40, 64);                   /* XLT0 of RSS */

    ck_assert_uint_eq(send_dl(&a, false, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 0);        /* nothing written back */
    ck_active_is_boot();                    /* not before the last buffer */
    ck_assert_uint_eq(send_dl(&b, true, NULL), AQ_RC_OK);
    get_info(resp);
    ck_info_entry(info_entry(resp, 0), ver, "two buffers", true, false);
    ck_assert_uint_eq(ld32(info_entry(resp, 0) + 32), 0x12345678);

    /* The downloaded package is device state: a PF reset keeps it. */
    irdma_dev_pf_reset(d);
    aqt_init(h, d);
    get_info(resp);
    ck_info_entry(info_entry(resp, 0), ver, "two buffers", true, false);
}
END_TEST

/* One malformed download buffer: EINVAL with the error response in the buffer. */
static void ck_dl_rejected(TBuf *t, uint16_t len, uint32_t err_offset)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0x01 };
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_DOWNLOAD_PKG, AQ_FLAG_RD, params, t->b, len, &r),
                      AQ_RC_EINVAL);
    ck_assert(r.flags & AQ_FLAG_ERR);
    ck_assert_uint_eq(r.datalen, 8);
    ck_assert_uint_eq(ld32(t->b), err_offset);
    ck_assert_uint_ne(ld32(t->b + 4), 0);   /* error_info */
    ck_active_is_boot();
}

START_TEST(download_rejects_malformed_buffers)
{
    TBuf t;
    uint8_t *m;

#define GOOD() do { tbuf_init(&t, 2); tbuf_add_meta(&t, synth_ver, "x"); tbuf_add(&t, 10, 8); } while (0)
    GOOD();
    st16(t.b, 0);                           /* no sections */
    ck_dl_rejected(&t, BUF_SZ, 0);
    GOOD();
    st16(t.b, 512);                         /* > 511 */
    ck_dl_rejected(&t, BUF_SZ, 0);
    GOOD();
    st16(t.b, 400);                         /* table past data_end */
    ck_dl_rejected(&t, BUF_SZ, 0);
    GOOD();
    st16(t.b + 2, 11);
    ck_dl_rejected(&t, BUF_SZ, 2);
    GOOD();
    st16(t.b + 2, 4097);
    ck_dl_rejected(&t, BUF_SZ, 2);
    GOOD();
    st16(t.b + 4 + 8 + 4, 12);              /* section 1 inside the section table */
    ck_dl_rejected(&t, BUF_SZ, 4 + 8);
    GOOD();
    st16(t.b + 4 + 8 + 6, 200);             /* section 1 past data_end */
    ck_dl_rejected(&t, BUF_SZ, 4 + 8);
    GOOD();
    st16(t.b + 4 + 6, 0);                   /* empty section */
    ck_dl_rejected(&t, BUF_SZ, 4);
    GOOD();
    st16(t.b + 4 + 8 + 4, 4095);            /* offset + size past 4 KiB */
    ck_dl_rejected(&t, BUF_SZ, 4 + 8);
    GOOD();
    ck_dl_rejected(&t, 2048, 0);            /* not a 4 KiB buffer */
    GOOD();
    st16(t.b + 4 + 6, 20);                  /* metadata section too short */
    ck_dl_rejected(&t, BUF_SZ, 4);
    /* A metadata buffer is never downloaded. */
    tbuf_init(&t, 1);
    tbuf_add(&t, SID_LBL_TMEM, 2);
    ck_dl_rejected(&t, BUF_SZ, 4);
    /* The last buffer of a package without a metadata section. */
    tbuf_init(&t, 1);
    tbuf_add(&t, 10, 8);
    ck_dl_rejected(&t, BUF_SZ, 0);
#undef GOOD
    /* A metadata-init section whose entries overrun it, or the table. */
    tbuf_init(&t, 2);
    tbuf_add_meta(&t, synth_ver, "x");
    m = tbuf_add(&t, SID_META_INIT, 28);
    st16(m, 2);
    ck_dl_rejected(&t, BUF_SZ, ld16(t.b + 4 + 8 + 4));
    tbuf_init(&t, 2);
    tbuf_add_meta(&t, synth_ver, "x");
    m = tbuf_add(&t, SID_META_INIT, 28);
    st16(m, 1);
    st16(m + 2, 16);
    ck_dl_rejected(&t, BUF_SZ, ld16(t.b + 4 + 8 + 4) + 2);
    ck_assert_uint_ge(fake_host_trace_count(h, "err_fw_pkg_bad_buffer: download_pkg"), 14);

    /* Without RD the engine refuses it before the handler. */
    tbuf_init(&t, 1);
    tbuf_add_meta(&t, synth_ver, "x");
    ck_assert_uint_eq(aqt_send(h, d, AQC_DOWNLOAD_PKG, 0, (uint8_t[AQ_PARAMS_SIZE]) { 1 }, t.b,
                               BUF_SZ, NULL), AQ_RC_EINVAL);
    ck_active_is_boot();
}
END_TEST

START_TEST(rejected_buffer_ends_the_download)
{
    TBuf a, bad, c;
    uint8_t ver[4] = { 1, 3, 6, 0 };

    tbuf_init(&a, 1);
    tbuf_add_meta(&a, ver, "aborted");
    tbuf_init(&bad, 1);
    tbuf_add(&bad, 10, 8);
    st16(bad.b + 2, 5000);
    tbuf_init(&c, 1);
    tbuf_add(&c, 10, 8);

    ck_assert_uint_eq(send_dl(&a, false, NULL), AQ_RC_OK);
    ck_assert_uint_eq(send_dl(&bad, false, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_download_aborted: after 1 buffers"), 1);
    /* A new download starts with c: it has no metadata section of its own. */
    ck_assert_uint_eq(send_dl(&c, true, NULL), AQ_RC_EINVAL);
    ck_active_is_boot();
}
END_TEST

START_TEST(pf_reset_abandons_a_download)
{
    TBuf a, c;
    uint8_t ver[4] = { 1, 3, 6, 0 };

    tbuf_init(&a, 1);
    tbuf_add_meta(&a, ver, "interrupted");
    tbuf_init(&c, 1);
    tbuf_add(&c, 10, 8);

    ck_assert_uint_eq(send_dl(&a, false, NULL), AQ_RC_OK);
    irdma_dev_pf_reset(d);
    aqt_init(h, d);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_download_aborted: after 1 buffers: PF reset"), 1);
    ck_assert_uint_eq(send_dl(&c, true, NULL), AQ_RC_EINVAL);
    ck_active_is_boot();
}
END_TEST

/* ---- 0x0C41 upload_section ---- */

/* The buffer ice_pkg_get_supported_vlan_mode sends: one metadata-init section of one entry. */
static uint8_t *vlan_mode_query(TBuf *t)
{
    uint8_t *s;

    tbuf_init(t, 1);
    s = tbuf_add(t, SID_META_INIT, 4 + 24);
    st16(s, 1);             /* count */
    st16(s + 2, 0);         /* ICE_META_VLAN_MODE_ENTRY */
    memset(s + 4, 0xaa, 24);
    return s;
}

static bool dvm_bit(const uint8_t *sect)
{
    /* ICE_META_VLAN_MODE_BIT = 123 + 60 in the entry's 32-bit words. */
    return ld32(sect + 4 + 4 * (183 / 32)) & (1u << (183 % 32));
}

START_TEST(upload_metadata_init_like_ice)
{
    static const uint8_t zero[24];
    TBuf t;
    uint8_t *s = vlan_mode_query(&t);
    AqtResp r;

    ck_assert_uint_eq(tbuf_data_end(&t), 40);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, &r),
                      AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, BUF_SZ);
    ck_assert_uint_eq(ld16(s), 1);
    ck_assert_mem_eq(s + 4, zero, 24);      /* the synthetic package: no DVM */
    ck_assert(!dvm_bit(s));
}
END_TEST

START_TEST(upload_answers_from_the_downloaded_package)
{
    TBuf dl, t;
    uint8_t *mi, *s;

    tbuf_init(&dl, 2);
    tbuf_add_meta(&dl, synth_ver, "with dvm");
    mi = tbuf_add(&dl, SID_META_INIT, 4 + 24);
    st16(mi, 1);
    st32(mi + 4 + 4 * (183 / 32), 1u << (183 % 32));
    ck_assert_uint_eq(send_dl(&dl, true, NULL), AQ_RC_OK);

    s = vlan_mode_query(&t);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, NULL),
                      AQ_RC_OK);
    ck_assert(dvm_bit(s));
}
END_TEST

START_TEST(upload_rejects_what_it_cannot_answer)
{
    TBuf t;
    uint8_t *s;
    AqtResp r;

    /* A table the firmware does not upload. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 42, 8);
    st16(s, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, &r),
                      AQ_RC_ENOENT);
    ck_assert_uint_eq(r.datalen, 0);
    /* No entries, entries past the section, entries past the table. */
    s = vlan_mode_query(&t);
    st16(s, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, NULL),
                      AQ_RC_EINVAL);
    s = vlan_mode_query(&t);
    st16(s, 2);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, NULL),
                      AQ_RC_EINVAL);
    s = vlan_mode_query(&t);
    st16(s + 2, 16);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, NULL),
                      AQ_RC_EINVAL);
    /* Bad header; data_end past the buffer sent. */
    s = vlan_mode_query(&t);
    st16(t.b, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, BUF_SZ, NULL),
                      AQ_RC_EINVAL);
    s = vlan_mode_query(&t);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, 32, NULL),
                      AQ_RC_EINVAL);
    /* Short buffer: the engine's minimum. */
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPLOAD_SECTION, AQ_FLAG_RD, NULL, t.b, 8, NULL),
                      AQ_RC_EINVAL);
    (void)s;
}
END_TEST

/* ---- 0x0C42 update_pkg ---- */

/* ice_upd_prof_hw for the RSS block: ES, TCAM, XLT1, XLT2 (in that order). */
static void rss_profile_update(TBuf *t)
{
    uint8_t *es, *tcam, *x1, *x2;

    tbuf_init(t, 4);
    es = tbuf_add(t, 46, 4 + 24 * 4);       /* fvw 24 words of 4 bytes */
    st16(es, 1);
    st16(es + 2, 5);                        /* profile 5 */
    tcam = tbuf_add(t, 44, 2 + 13);
    st16(tcam, 1);
    st16(tcam + 2, 3);                      /* TCAM index 3 */
    tcam[2 + 12] = 5;                       /* prof_id */
    x1 = tbuf_add(t, 42, 4 + 1);
    st16(x1, 1);
    st16(x1 + 2, 24);                       /* ptype IPV4_UDP_PAY */
    x1[4] = 1;                              /* ptg */
    x2 = tbuf_add(t, 43, 4 + 2);
    st16(x2, 1);
    st16(x2 + 2, 2);                        /* vsi */
    st16(x2 + 4, 1);                        /* vsig */
}

START_TEST(update_profile_like_ice)
{
    TBuf t;
    uint8_t resp[INFO_BUF_SZ];
    AqtResp r;

    rss_profile_update(&t);
    ck_assert_uint_eq(send_update(&t, tbuf_data_end(&t), &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_update: committed 4 sections in 1 buffers"), 1);
    get_info(resp);
    ck_assert_uint_eq(info_entry(resp, 0)[39], 1);  /* is_modified */
}
END_TEST

START_TEST(update_boost_tcam_like_tunnel_setup)
{
    TBuf t;
    uint8_t *rx, *tx;

    tbuf_init(&t, 2);
    rx = tbuf_add(&t, 56, 4 + 88);
    st16(rx, 1);
    tx = tbuf_add(&t, 66, 4 + 88);
    st16(tx, 1);
    ck_assert_uint_eq(send_update(&t, tbuf_data_end(&t), NULL), AQ_RC_OK);
}
END_TEST

static void ck_update_rejected(TBuf *t, uint16_t len, uint32_t err_offset)
{
    AqtResp r;

    ck_assert_uint_eq(send_update(t, len, &r), AQ_RC_EINVAL);
    ck_assert_uint_eq(r.datalen, 8);
    ck_assert_uint_eq(ld32(t->b), err_offset);
    ck_assert_uint_ne(ld32(t->b + 4), 0);
}

START_TEST(update_rejects_malformed_sections)
{
    TBuf t;
    uint8_t *s;
    uint8_t resp[INFO_BUF_SZ];

    /* A section type that is not an updatable table. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, SID_META_INIT, 28);
    st16(s, 1);
    ck_update_rejected(&t, tbuf_data_end(&t), 4);
    /* XLT1 past its 1024 ptypes. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 42, 5);
    st16(s, 1);
    st16(s + 2, 1024);
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8) + 2);
    /* XLT2 values past the section. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 43, 6);
    st16(s, 2);
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8));
    /* PE profile TCAM has 64 entries and 32 profiles. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 84, 15);
    st16(s, 1);
    st16(s + 2, 64);
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8) + 2);
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 84, 15);
    st16(s, 1);
    s[2 + 12] = 32;
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8) + 2 + 12);
    /* Switch-block ES entries are 48 words, not 24. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 16, 4 + 24 * 4);
    st16(s, 1);
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8));
    /* Zero entries; data_end past the bytes sent. */
    tbuf_init(&t, 1);
    s = tbuf_add(&t, 56, 4 + 88);
    ck_update_rejected(&t, tbuf_data_end(&t), ld16(t.b + 8));
    rss_profile_update(&t);
    ck_update_rejected(&t, tbuf_data_end(&t) - 1, 2);
    /* Nothing of these was committed. */
    get_info(resp);
    ck_assert_uint_eq(info_entry(resp, 0)[39], 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_pkg_update:"), 0);
}
END_TEST

Suite *fw_pkg_suite(void)
{
    Suite *s = suite_create("fw_pkg");
    TCase *gen = tcase_create("package");
    TCase *tc = tcase_create("opcodes");

    tcase_add_test(gen, generated_package_passes_driver_checks);
    tcase_add_test(gen, download_variant_sends_one_buffer);
    tcase_add_test(gen, generator_options_and_their_errors);
    tcase_add_test(gen, checker_rejects_broken_packages);
    suite_add_tcase(s, gen);

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, pkg_info_reports_the_synthetic_package_as_active);
    tcase_add_test(tc, pkg_info_other_1_3_file_is_compatible);
    tcase_add_test(tc, pkg_info_buffer_sizes);
    tcase_add_test(tc, download_of_generated_package_becomes_active);
    tcase_add_test(tc, download_activates_on_the_last_buffer);
    tcase_add_test(tc, download_rejects_malformed_buffers);
    tcase_add_test(tc, rejected_buffer_ends_the_download);
    tcase_add_test(tc, pf_reset_abandons_a_download);
    tcase_add_test(tc, upload_metadata_init_like_ice);
    tcase_add_test(tc, upload_answers_from_the_downloaded_package);
    tcase_add_test(tc, upload_rejects_what_it_cannot_answer);
    tcase_add_test(tc, update_profile_like_ice);
    tcase_add_test(tc, update_boost_tcam_like_tunnel_setup);
    tcase_add_test(tc, update_rejects_malformed_sections);
    suite_add_tcase(s, tc);
    return s;
}
