/*
 * fw/pkg.c - the DDP package the firmware holds (see fw/pkg.h): download package (0x0C40),
 * upload section (0x0C41), update package (0x0C42), get package info list (0x0C43).
 *
 * Package buffers are 4 KiB ice_buf_hdr buffers (ddp_format.h). Every buffer the driver sends
 * is checked before anything in it is used: section count, data_end, and each section entry
 * must lie inside the buffer (ice's own rules from ice_pkg_val_buf / ice_pkg_enum_section,
 * plus sections after the table and inside data_end). Rejected 0x0C40/0x0C42 buffers get the
 * firmware's error response (error offset, error info) written over their first 8 bytes,
 * which ice_aq_download_pkg / ice_aq_update_pkg read back on an AQ error.
 */
#include "fw/pkg.h"
#include "fw/ddp_format.h"
#include "core/le.h"
#include "core/trace.h"

/* 0x0C40 / 0x0C42 params (struct ice_aqc_download_pkg) */
#define DL_PKG_FLAGS                0
#define DL_PKG_LAST_BUF             0x01
/* Their error response in the buffer (struct ice_aqc_download_pkg_resp) */
#define DL_RESP_ERROR_OFFSET        0
#define DL_RESP_ERROR_INFO          4
#define DL_RESP_SIZE                8

/* 0x0C43 response buffer (struct ice_aqc_get_pkg_info_resp) */
#define PKG_INFO_COUNT              0
#define PKG_INFO_ENTRIES            4
#define PKG_INFO_SIZE               40
#define PKG_INFO_VER                0
#define PKG_INFO_NAME               4
#define PKG_INFO_NAME_SIZE          28      /* ICE_SEG_NAME_SIZE */
#define PKG_INFO_TRACK_ID           32
#define PKG_INFO_IS_IN_NVM          36
#define PKG_INFO_IS_ACTIVE          37
#define PKG_INFO_IS_ACTIVE_AT_BOOT  38
#define PKG_INFO_IS_MODIFIED        39
G_STATIC_ASSERT(PKG_INFO_NAME_SIZE == DDP_META_NAME_SIZE);

/* error_info of a rejected buffer. The real codes are not documented; ice only logs them. */
enum {
    PKG_ERR_BUF_LEN = 1,        /* download buffer is not 4 KiB */
    PKG_ERR_SECT_COUNT,         /* section count outside 1..511, or table past data_end */
    PKG_ERR_DATA_END,           /* data_end outside 12..4096 or past the buffer */
    PKG_ERR_SECT_ENTRY,         /* a section's offset/size leaves the buffer's data */
    PKG_ERR_SECT_TYPE,          /* a section the command cannot take */
    PKG_ERR_SECT_CONTENT,       /* a section whose entries do not fit it or its table */
    PKG_ERR_METADATA_BUF,       /* a metadata buffer sent for download */
    PKG_ERR_NO_METADATA,        /* last download buffer, and no metadata section seen */
    PKG_ERR_TOO_MANY_BUFS,      /* download or update longer than the firmware holds */
};

/* Entries of the Rx parser's metadata-init table the model keeps (ice reads entry 0). */
#define META_INIT_ENTRIES           16
/* Buffers one download or update may span (a real package is ~200). */
#define MAX_SESSION_BUFS            4096

/* Hardware table sizes per block SW, ACL, FD, RSS, PE (blk_sizes[] in ice_flex_pipe.c). */
#define NUM_BLOCKS                  5
static const uint32_t blk_sid_base[NUM_BLOCKS] = {
    DDP_SID_BASE_SW, DDP_SID_BASE_ACL, DDP_SID_BASE_FD, DDP_SID_BASE_RSS, DDP_SID_BASE_PE,
};
static const uint16_t blk_tcam_entries[NUM_BLOCKS] = { 512, 512, 512, 512, 64 };
static const uint16_t blk_prof_ids[NUM_BLOCKS] = { 256, 128, 128, 128, 32 };
static const uint16_t blk_es_entries[NUM_BLOCKS] = { 256, 128, 128, 128, 32 };
static const uint16_t blk_fv_words[NUM_BLOCKS] = { 48, 32, 24, 24, 24 };

/* What identifies a package: its metadata section. */
typedef struct PkgId {
    uint8_t ver[DDP_VER_SIZE];
    uint8_t name[DDP_META_NAME_SIZE];
    uint32_t track_id;
} PkgId;

typedef uint8_t MetaInitTable[META_INIT_ENTRIES][DDP_META_INIT_ENTRY_SIZE];

struct FwPkg {
    IrdmaDev *d;
    PkgId boot;                 /* the package the device starts with (synthetic) */
    PkgId active;               /* reported by 0x0C43 as active */
    bool active_is_boot;
    bool modified;              /* an update (0x0C42) changed the active package */
    MetaInitTable meta_init;    /* active package's, answered by 0x0C41 */
    uint64_t updates;           /* update commands committed (last buffer accepted) */

    /* Download in progress: opened by the first buffer, applied by the last. */
    bool dl_open;
    unsigned dl_bufs;
    bool dl_have_meta;
    PkgId dl_meta;
    MetaInitTable dl_meta_init;

    /* Update in progress (ice sends one buffer, marked last). */
    bool upd_open;
    unsigned upd_bufs;
    unsigned upd_sections;
};

typedef struct PkgBufErr {
    uint32_t offset;            /* byte offset of the offending field in the buffer */
    uint32_t info;              /* PKG_ERR_* */
    const char *what;
} PkgBufErr;

static bool buf_err(PkgBufErr *e, uint32_t offset, uint32_t info, const char *what)
{
    e->offset = offset;
    e->info = info;
    e->what = what;
    return false;
}

/* One section of a checked buffer. */
typedef struct PkgSect {
    uint32_t type;
    unsigned entry_off;         /* offset of its section-table entry */
    unsigned off, size;
    const uint8_t *data;
} PkgSect;

static PkgSect buf_section(const uint8_t *b, unsigned i)
{
    unsigned entry = DDP_BUF_SECTION_ENTRY + i * DDP_SECT_ENTRY_SIZE;
    unsigned off = ld16(b + entry + DDP_SECT_ENTRY_OFFSET);

    return (PkgSect) {
        .type = ld32(b + entry + DDP_SECT_ENTRY_TYPE),
        .entry_off = entry,
        .off = off,
        .size = ld16(b + entry + DDP_SECT_ENTRY_SIZE_FIELD),
        .data = b + off,
    };
}

/*
 * Checks the header and section table of a @len-byte buffer: everything later code reads
 * through buf_section() lies inside the first data_end <= @len bytes.
 */
static bool check_buf(const uint8_t *b, unsigned len, PkgBufErr *e)
{
    unsigned count, data_end, table_end;

    if (len < DDP_MIN_S_DATA_END) {
        return buf_err(e, 0, PKG_ERR_BUF_LEN, "buffer shorter than a buffer header");
    }
    count = ld16(b + DDP_BUF_SECTION_COUNT);
    if (count < DDP_MIN_S_COUNT || count > DDP_MAX_S_COUNT) {
        return buf_err(e, DDP_BUF_SECTION_COUNT, PKG_ERR_SECT_COUNT, "bad section count");
    }
    data_end = ld16(b + DDP_BUF_DATA_END);
    if (data_end < DDP_MIN_S_DATA_END || data_end > DDP_MAX_S_DATA_END || data_end > len) {
        return buf_err(e, DDP_BUF_DATA_END, PKG_ERR_DATA_END, "bad data_end");
    }
    table_end = DDP_BUF_SECTION_ENTRY + count * DDP_SECT_ENTRY_SIZE;
    if (table_end > data_end) {
        return buf_err(e, DDP_BUF_SECTION_COUNT, PKG_ERR_SECT_COUNT,
                       "section table past data_end");
    }
    for (unsigned i = 0; i < count; i++) {
        PkgSect s = buf_section(b, i);

        if (s.off < table_end || s.off < DDP_MIN_S_OFF || s.off > DDP_MAX_S_OFF ||
            s.size < DDP_MIN_S_SZ || s.size > DDP_MAX_S_SZ || s.off + s.size > data_end) {
            return buf_err(e, s.entry_off, PKG_ERR_SECT_ENTRY, "section outside the data");
        }
    }
    return true;
}

static unsigned buf_count(const uint8_t *b)
{
    return ld16(b + DDP_BUF_SECTION_COUNT);
}

/* Write the error response of a rejected 0x0C40/0x0C42 buffer. */
static uint16_t reject_buf(IrdmaDev *d, AqCmd *c, const char *op, const PkgBufErr *e)
{
    emu_trace(&d->host, TR_ERR_FW_PKG_BAD_BUFFER, "%s: %s (offset %u, info %u)", op, e->what,
              e->offset, e->info);
    st32(c->buf + DL_RESP_ERROR_OFFSET, e->offset);
    st32(c->buf + DL_RESP_ERROR_INFO, e->info);
    c->resp_len = DL_RESP_SIZE;
    return AQ_RC_EINVAL;
}

/* A metadata-init section { count, first entry, entries[count] } that fits itself and the
 * table; *first and *count receive its range. */
static bool check_meta_init(const PkgSect *s, unsigned *first, unsigned *count, PkgBufErr *e)
{
    if (s->size < DDP_META_INIT_ENTRY) {
        return buf_err(e, s->entry_off, PKG_ERR_SECT_CONTENT, "metadata-init section too short");
    }
    *count = ld16(s->data + DDP_META_INIT_COUNT);
    *first = ld16(s->data + DDP_META_INIT_OFFSET);
    if (*count == 0 || DDP_META_INIT_ENTRY + *count * DDP_META_INIT_ENTRY_SIZE > s->size) {
        return buf_err(e, s->off + DDP_META_INIT_COUNT, PKG_ERR_SECT_CONTENT,
                       "metadata-init entries do not fit the section");
    }
    if (*first + *count > META_INIT_ENTRIES) {
        return buf_err(e, s->off + DDP_META_INIT_OFFSET, PKG_ERR_SECT_CONTENT,
                       "metadata-init entries beyond the table");
    }
    return true;
}

static void abort_download(FwPkg *s, const char *why)
{
    if (s->dl_open) {
        emu_trace(&s->d->host, TR_FW_PKG_DOWNLOAD_ABORTED, "after %u buffers: %s", s->dl_bufs,
                  why);
    }
    s->dl_open = false;
}

/*
 * 0x0C40 download package: one 4 KiB configuration buffer of the package per command, the
 * last one flagged. The firmware takes the package's identity from its metadata section and
 * its metadata-init table (DVM support, read back by 0x0C41) from the buffers; the package
 * becomes active when the last buffer is accepted. A rejected buffer ends the download and
 * leaves the previous package active.
 */
static uint16_t fw_download_pkg(IrdmaDev *d, AqCmd *c)
{
    FwPkg *s = d->pkg;
    bool last = c->params[DL_PKG_FLAGS] & DL_PKG_LAST_BUF;
    PkgBufErr e;

    if (c->buf_len != DDP_BUF_SIZE) {
        buf_err(&e, 0, PKG_ERR_BUF_LEN, "download buffer is not 4 KiB");
        goto reject;
    }
    if (!check_buf(c->buf, c->buf_len, &e)) {
        goto reject;
    }
    /* ice stops before the first metadata buffer: those are not configuration. */
    if (buf_section(c->buf, 0).type & DDP_METADATA_BUF) {
        buf_err(&e, DDP_BUF_SECTION_ENTRY + DDP_SECT_ENTRY_TYPE, PKG_ERR_METADATA_BUF,
                "metadata buffer downloaded");
        goto reject;
    }
    if (!s->dl_open) {
        s->dl_open = true;
        s->dl_bufs = 0;
        s->dl_have_meta = false;
        memset(s->dl_meta_init, 0, sizeof(s->dl_meta_init));
        emu_trace(&d->host, TR_FW_PKG_DOWNLOAD_START, "first buffer: %u sections",
                  buf_count(c->buf));
    }
    if (s->dl_bufs >= MAX_SESSION_BUFS) {
        buf_err(&e, 0, PKG_ERR_TOO_MANY_BUFS, "download longer than the firmware holds");
        goto reject;
    }
    for (unsigned i = 0; i < buf_count(c->buf); i++) {
        PkgSect sect = buf_section(c->buf, i);
        unsigned first, count;

        if (sect.type == DDP_SID_METADATA) {
            if (sect.size < DDP_META_SECT_SIZE) {
                buf_err(&e, sect.entry_off, PKG_ERR_SECT_CONTENT, "metadata section too short");
                goto reject;
            }
            if (!s->dl_have_meta) {
                memcpy(s->dl_meta.ver, sect.data + DDP_META_VER, DDP_VER_SIZE);
                memcpy(s->dl_meta.name, sect.data + DDP_META_NAME, DDP_META_NAME_SIZE);
                s->dl_meta.track_id = ld32(sect.data + DDP_META_TRACK_ID);
                s->dl_have_meta = true;
            }
        } else if (sect.type == DDP_SID_RXPARSER_METADATA_INIT) {
            if (!check_meta_init(&sect, &first, &count, &e)) {
                goto reject;
            }
            memcpy(s->dl_meta_init[first], sect.data + DDP_META_INIT_ENTRY,
                   count * DDP_META_INIT_ENTRY_SIZE);
        }
    }
    s->dl_bufs++;
    if (last) {
        if (!s->dl_have_meta) {
            buf_err(&e, 0, PKG_ERR_NO_METADATA, "package without a metadata section");
            goto reject;
        }
        s->active = s->dl_meta;
        s->active_is_boot = false;
        s->modified = false;
        memcpy(s->meta_init, s->dl_meta_init, sizeof(s->meta_init));
        s->dl_open = false;
        emu_trace(&d->host, TR_FW_PKG_ACTIVATED, "'%.*s' %u.%u.%u.%u from %u buffers",
                  DDP_META_NAME_SIZE, (const char *)s->active.name,
                  s->active.ver[DDP_VER_MAJOR], s->active.ver[DDP_VER_MINOR],
                  s->active.ver[DDP_VER_UPDATE], s->active.ver[DDP_VER_DRAFT], s->dl_bufs);
    }
    /* Nothing to write back on success. */
    c->resp_len = 0;
    return AQ_RC_OK;

reject:
    abort_download(s, e.what);
    return reject_buf(d, c, "download_pkg", &e);
}

/*
 * 0x0C41 upload section: the driver sends a buffer of sections with the entry range it wants
 * in each section header; the firmware fills the entries from the active package. The only
 * table ice 6.1 reads is the Rx parser metadata-init table (ice_pkg_get_supported_vlan_mode,
 * asking whether the package supports double VLAN); anything else is ENOENT, which ice takes
 * as "no DVM".
 */
static uint16_t fw_upload_section(IrdmaDev *d, AqCmd *c)
{
    FwPkg *s = d->pkg;
    PkgBufErr e;
    unsigned n;

    c->resp_len = 0;
    if (!check_buf(c->buf, c->buf_len, &e)) {
        emu_trace(&d->host, TR_ERR_FW_PKG_BAD_BUFFER, "upload_section: %s (offset %u)", e.what,
                  e.offset);
        return AQ_RC_EINVAL;
    }
    n = buf_count(c->buf);
    /* Check every section before filling any. */
    for (unsigned i = 0; i < n; i++) {
        PkgSect sect = buf_section(c->buf, i);
        unsigned first, count;

        if (sect.type != DDP_SID_RXPARSER_METADATA_INIT) {
            emu_trace(&d->host, TR_ERR_FW_PKG_UPLOAD_UNSUPPORTED, "section type 0x%08x", sect.type);
            return AQ_RC_ENOENT;
        }
        if (!check_meta_init(&sect, &first, &count, &e)) {
            emu_trace(&d->host, TR_ERR_FW_PKG_BAD_BUFFER, "upload_section: %s (offset %u)", e.what,
                      e.offset);
            return AQ_RC_EINVAL;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        PkgSect sect = buf_section(c->buf, i);
        unsigned first = ld16(sect.data + DDP_META_INIT_OFFSET);
        unsigned count = ld16(sect.data + DDP_META_INIT_COUNT);

        memcpy(c->buf + sect.off + DDP_META_INIT_ENTRY, s->meta_init[first],
               count * DDP_META_INIT_ENTRY_SIZE);
        emu_trace(&d->host, TR_FW_PKG_UPLOAD, "metadata-init entries %u..%u", first,
                  first + count - 1);
    }
    c->resp_len = c->buf_len;
    return AQ_RC_OK;
}

/* Block (0..NUM_BLOCKS-1) and kind (DDP_SID_KIND_*) of a per-block table section type. */
static bool block_section(uint32_t type, unsigned *blk, unsigned *kind)
{
    for (unsigned b = 0; b < NUM_BLOCKS; b++) {
        if (type >= blk_sid_base[b] && type <= blk_sid_base[b] + DDP_SID_KIND_CDID_REDIR) {
            *blk = b;
            *kind = type - blk_sid_base[b];
            return true;
        }
    }
    return false;
}

/* The entry count of a table section { count, ... } of @hdr header bytes and @entry_size
 * entries, or 0 (with @e set) when it is empty or its entries overrun the section. */
static unsigned table_count(const PkgSect *s, unsigned hdr, unsigned entry_size, PkgBufErr *e)
{
    unsigned count;

    if (s->size < hdr) {
        buf_err(e, s->entry_off, PKG_ERR_SECT_CONTENT, "table section too short");
        return 0;
    }
    count = ld16(s->data + DDP_TBL_COUNT);
    if (count == 0 || hdr + count * entry_size > s->size) {
        buf_err(e, s->off + DDP_TBL_COUNT, PKG_ERR_SECT_CONTENT,
                "table entries do not fit the section");
        return 0;
    }
    return count;
}

/* An offset-addressed table section { count, offset, values } inside a @size-entry table. */
static bool check_range(const PkgSect *s, unsigned count, unsigned size, PkgBufErr *e)
{
    if (ld16(s->data + DDP_TBL_OFFSET) + count > size) {
        return buf_err(e, s->off + DDP_TBL_OFFSET, PKG_ERR_SECT_CONTENT,
                       "table entries beyond the table");
    }
    return true;
}

/*
 * The sections ice 6.1 sends with 0x0C42: profile programming (ice_upd_prof_hw: extraction
 * sequence, profile TCAM, XLT1 ptype groups, XLT2 VSI groups, per block) and parser boost TCAM
 * entries (tunnel ports, DVM: Rx and Tx copies). Each must fit the section and the table.
 */
static bool check_update_section(const PkgSect *s, PkgBufErr *e)
{
    unsigned blk, kind, count;

    if (s->type == DDP_SID_RXPARSER_BOOST_TCAM || s->type == DDP_SID_TXPARSER_BOOST_TCAM) {
        return table_count(s, DDP_TBL_DATA, DDP_BOOST_TCAM_ENTRY_SIZE, e) != 0;
    }
    if (!block_section(s->type, &blk, &kind)) {
        return buf_err(e, s->entry_off + DDP_SECT_ENTRY_TYPE, PKG_ERR_SECT_TYPE,
                       "section type the firmware cannot update");
    }
    switch (kind) {
    case DDP_SID_KIND_XLT1:
        count = table_count(s, DDP_TBL_DATA, DDP_XLT1_VALUE_SIZE, e);
        return count && check_range(s, count, DDP_XLT1_ENTRIES, e);
    case DDP_SID_KIND_XLT2:
        count = table_count(s, DDP_TBL_DATA, DDP_XLT2_VALUE_SIZE, e);
        return count && check_range(s, count, DDP_XLT2_ENTRIES, e);
    case DDP_SID_KIND_VEC_TBL:
        count = table_count(s, DDP_TBL_DATA, blk_fv_words[blk] * DDP_FV_WORD_SIZE, e);
        return count && check_range(s, count, blk_es_entries[blk], e);
    case DDP_SID_KIND_PROF_TCAM:
        count = table_count(s, DDP_PROF_TCAM_DATA, DDP_PROF_TCAM_ENTRY_SIZE, e);
        for (unsigned i = 0; i < count; i++) {
            unsigned at = s->off + DDP_PROF_TCAM_DATA + i * DDP_PROF_TCAM_ENTRY_SIZE;
            const uint8_t *ent = s->data + DDP_PROF_TCAM_DATA + i * DDP_PROF_TCAM_ENTRY_SIZE;

            if (ld16(ent + DDP_PROF_TCAM_ADDR) >= blk_tcam_entries[blk]) {
                return buf_err(e, at + DDP_PROF_TCAM_ADDR, PKG_ERR_SECT_CONTENT,
                               "profile TCAM address beyond the table");
            }
            if (ent[DDP_PROF_TCAM_PROF_ID] >= blk_prof_ids[blk]) {
                return buf_err(e, at + DDP_PROF_TCAM_PROF_ID, PKG_ERR_SECT_CONTENT,
                               "profile id beyond the block's profiles");
            }
        }
        return count != 0;
    default:
        return buf_err(e, s->entry_off + DDP_SECT_ENTRY_TYPE, PKG_ERR_SECT_TYPE,
                       "section type the firmware cannot update");
    }
}

/*
 * 0x0C42 update package: buffers of table sections (data_end bytes each, as
 * ice_update_pkg_no_lock sends them), the last one flagged; committed when the last is
 * accepted. The model checks and counts them but keeps no parser or classifier tables.
 */
static uint16_t fw_update_pkg(IrdmaDev *d, AqCmd *c)
{
    FwPkg *s = d->pkg;
    bool last = c->params[DL_PKG_FLAGS] & DL_PKG_LAST_BUF;
    PkgBufErr e;

    if (!check_buf(c->buf, c->buf_len, &e)) {
        goto reject;
    }
    for (unsigned i = 0; i < buf_count(c->buf); i++) {
        PkgSect sect = buf_section(c->buf, i);

        if (!check_update_section(&sect, &e)) {
            goto reject;
        }
    }
    if (!s->upd_open) {
        s->upd_open = true;
        s->upd_bufs = 0;
        s->upd_sections = 0;
    }
    if (s->upd_bufs >= MAX_SESSION_BUFS) {
        buf_err(&e, 0, PKG_ERR_TOO_MANY_BUFS, "update longer than the firmware holds");
        goto reject;
    }
    s->upd_bufs++;
    s->upd_sections += buf_count(c->buf);
    if (last) {
        s->upd_open = false;
        s->modified = true;
        s->updates++;
        emu_trace(&d->host, TR_FW_PKG_UPDATE, "committed %u sections in %u buffers",
                  s->upd_sections, s->upd_bufs);
    }
    c->resp_len = 0;
    return AQ_RC_OK;

reject:
    s->upd_open = false;
    return reject_buf(d, c, "update_pkg", &e);
}

static void put_pkg_info(uint8_t *e, const PkgId *id, bool active, bool at_boot, bool modified)
{
    memcpy(e + PKG_INFO_VER, id->ver, DDP_VER_SIZE);
    memcpy(e + PKG_INFO_NAME, id->name, PKG_INFO_NAME_SIZE);
    st32(e + PKG_INFO_TRACK_ID, id->track_id);
    /* Not in NVM: ice_chk_pkg_compat compares only NVM packages with its file's segment. */
    e[PKG_INFO_IS_IN_NVM] = 0;
    e[PKG_INFO_IS_ACTIVE] = active;
    e[PKG_INFO_IS_ACTIVE_AT_BOOT] = at_boot;
    e[PKG_INFO_IS_MODIFIED] = modified;
}

/*
 * 0x0C43 get package info list: the active package first (ice_get_pkg_info keeps the entry
 * with is_active; ice_get_ddp_pkg_state compares its version and 28-byte name with the file's
 * metadata section), then, once a download replaced it, the package the device booted with.
 */
static uint16_t fw_get_pkg_info_list(IrdmaDev *d, AqCmd *c)
{
    FwPkg *s = d->pkg;
    unsigned cap = (c->buf_len - PKG_INFO_ENTRIES) / PKG_INFO_SIZE;
    unsigned n = 0;

    memset(c->buf, 0, c->buf_len);
    put_pkg_info(c->buf + PKG_INFO_ENTRIES, &s->active, true, s->active_is_boot, s->modified);
    n++;
    if (!s->active_is_boot && n < cap) {
        put_pkg_info(c->buf + PKG_INFO_ENTRIES + n * PKG_INFO_SIZE, &s->boot, false, true, false);
        n++;
    }
    st32(c->buf + PKG_INFO_COUNT, n);
    c->resp_len = PKG_INFO_ENTRIES + n * PKG_INFO_SIZE;
    emu_trace(&d->host, TR_FW_PKG_INFO, "active '%.*s' %u.%u.%u.%u%s, %u entries",
              DDP_META_NAME_SIZE, (const char *)s->active.name, s->active.ver[DDP_VER_MAJOR],
              s->active.ver[DDP_VER_MINOR], s->active.ver[DDP_VER_UPDATE],
              s->active.ver[DDP_VER_DRAFT], s->active_is_boot ? " (boot)" : "", n);
    return AQ_RC_OK;
}

static const AqOpcode pkg_ops[] = {
    { AQC_DOWNLOAD_PKG, "download_pkg", fw_download_pkg, AQ_BUF_INOUT, DDP_MIN_S_DATA_END },
    { AQC_UPLOAD_SECTION, "upload_section", fw_upload_section, AQ_BUF_INOUT,
      DDP_MIN_S_DATA_END },
    { AQC_UPDATE_PKG, "update_pkg", fw_update_pkg, AQ_BUF_INOUT, DDP_MIN_S_DATA_END },
    { AQC_GET_PKG_INFO_LIST, "get_pkg_info_list", fw_get_pkg_info_list, AQ_BUF_OUT,
      PKG_INFO_ENTRIES + PKG_INFO_SIZE },
};

const AqOpcodeTable fw_pkg_opcodes = { pkg_ops, G_N_ELEMENTS(pkg_ops) };

FwPkg *fw_pkg_new(IrdmaDev *d)
{
    FwPkg *s = g_new0(FwPkg, 1);

    s->d = d;
    s->boot.ver[DDP_VER_MAJOR] = DDP_SYNTH_VER_MAJOR;
    s->boot.ver[DDP_VER_MINOR] = DDP_SYNTH_VER_MINOR;
    s->boot.ver[DDP_VER_UPDATE] = DDP_SYNTH_VER_UPDATE;
    s->boot.ver[DDP_VER_DRAFT] = DDP_SYNTH_VER_DRAFT;
    G_STATIC_ASSERT(sizeof(DDP_SYNTH_NAME) <= DDP_META_NAME_SIZE);
    memcpy(s->boot.name, DDP_SYNTH_NAME, sizeof(DDP_SYNTH_NAME));
    s->boot.track_id = DDP_SYNTH_TRACK_ID;
    s->active = s->boot;
    s->active_is_boot = true;
    /* The synthetic package has no parser, so no double-VLAN support: all zero. */
    return s;
}

void fw_pkg_free(FwPkg *s)
{
    g_free(s);
}

void fw_pkg_pf_reset(FwPkg *s)
{
    /* The active package is device state and survives; a half-sent download or update
     * does not. */
    abort_download(s, "PF reset");
    s->upd_open = false;
}
