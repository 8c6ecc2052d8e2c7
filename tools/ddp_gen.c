/* ddp_gen.c - synthetic DDP package builder (see ddp_gen.h). */
#include <string.h>
#include "ddp_gen.h"
#include "emu/core/le.h"

G_DEFINE_QUARK(ddp-gen-error-quark, ddp_gen_error)

/* One 4 KiB buffer under construction, filled the way ice_pkg_buf_alloc /
 * ice_pkg_buf_reserve_section / ice_pkg_buf_alloc_section fill theirs: the section table is
 * reserved first, then each section goes at the next 4-byte aligned data_end. */
typedef struct BufBuild {
    uint8_t *b;
    unsigned reserved;
} BufBuild;

static void buf_init(BufBuild *bb, uint8_t *b, unsigned sections)
{
    g_assert(sections >= DDP_MIN_S_COUNT && sections <= DDP_MAX_S_COUNT);
    bb->b = b;
    bb->reserved = sections;
    memset(b, 0, DDP_BUF_SIZE);
    st16(b + DDP_BUF_SECTION_COUNT, 0);
    st16(b + DDP_BUF_DATA_END, DDP_BUF_SECTION_ENTRY + sections * DDP_SECT_ENTRY_SIZE);
}

static uint8_t *buf_add_section(BufBuild *bb, uint32_t type, uint16_t size)
{
    unsigned n = ld16(bb->b + DDP_BUF_SECTION_COUNT);
    unsigned off = ld16(bb->b + DDP_BUF_DATA_END);
    uint8_t *e = bb->b + DDP_BUF_SECTION_ENTRY + n * DDP_SECT_ENTRY_SIZE;

    off = (off + DDP_SECT_ALIGN - 1) & ~(DDP_SECT_ALIGN - 1u);
    /* Internal invariants of the fixed layouts built below, not input checks. */
    g_assert(n < bb->reserved);
    g_assert(size >= DDP_MIN_S_SZ && size <= DDP_MAX_S_SZ);
    g_assert(off >= DDP_MIN_S_OFF && off + size <= DDP_MAX_S_DATA_END);
    st32(e + DDP_SECT_ENTRY_TYPE, type);
    st16(e + DDP_SECT_ENTRY_OFFSET, off);
    st16(e + DDP_SECT_ENTRY_SIZE_FIELD, size);
    st16(bb->b + DDP_BUF_SECTION_COUNT, n + 1);
    st16(bb->b + DDP_BUF_DATA_END, off + size);
    return bb->b + off;
}

static void add_metadata(BufBuild *bb, const DdpGenSpec *s)
{
    uint8_t *m = buf_add_section(bb, DDP_SID_METADATA, DDP_META_SECT_SIZE);

    memcpy(m + DDP_META_VER, s->ver, DDP_VER_SIZE);
    memcpy(m + DDP_META_NAME, s->name, DDP_META_NAME_SIZE);
    st32(m + DDP_META_TRACK_ID, s->track_id);
}

/* The tunnel hints of a real E810 package, for every PF: Rx-parser labels TNL_VXLAN_PF<n> and
 * TNL_GENEVE_PF<n> naming boost TCAM entries. ice_init_pkg_hints turns them into its UDP tunnel
 * port tables; a package without them leaves the tables empty, and with udp_tunnel loaded (rxe,
 * vxlan) the kernel then refuses ice's netdev. The label section is a metadata type, so the
 * buffer holding it first is a metadata buffer. */
static void add_tunnel_labels(BufBuild *bb)
{
    uint8_t *l = buf_add_section(bb, DDP_SID_LBL_RXPARSER_TMEM,
                                 DDP_LABEL_SECT_HDR + DDP_TNL_HINTS * DDP_LABEL_SIZE);

    st16(l + DDP_LABEL_SECT_COUNT, DDP_TNL_HINTS);
    for (unsigned i = 0; i < DDP_TNL_HINTS; i++) {
        uint8_t *e = l + DDP_LABEL_SECT_HDR + i * DDP_LABEL_SIZE;

        st16(e + DDP_LABEL_VALUE, DDP_TNL_BOOST_ADDR(i));
        g_snprintf((char *)e + DDP_LABEL_NAME, DDP_LABEL_NAME_SIZE, "%s%u",
                   i < DDP_TNL_PFS ? DDP_TNL_VXLAN_LABEL : DDP_TNL_GENEVE_LABEL, i % DDP_TNL_PFS);
    }
}

/* The boost TCAM entries the tunnel labels name; their keys never match until ice writes a
 * port into one (ice_create_tunnel, 0x0C42). */
static void add_tunnel_boost_tcam(BufBuild *bb)
{
    uint8_t *t = buf_add_section(bb, DDP_SID_RXPARSER_BOOST_TCAM,
                                 DDP_TBL_DATA + DDP_TNL_HINTS * DDP_BOOST_TCAM_ENTRY_SIZE);

    st16(t + DDP_TBL_COUNT, DDP_TNL_HINTS);
    for (unsigned i = 0; i < DDP_TNL_HINTS; i++) {
        st16(t + DDP_TBL_DATA + i * DDP_BOOST_TCAM_ENTRY_SIZE + DDP_BOOST_TCAM_ADDR,
             DDP_TNL_BOOST_ADDR(i));
    }
}

/* Entry 0 of the parser's metadata-init table, all zero: no double-VLAN support. */
static void add_meta_init(BufBuild *bb)
{
    uint8_t *mi = buf_add_section(bb, DDP_SID_RXPARSER_METADATA_INIT,
                                  DDP_META_INIT_ENTRY + DDP_META_INIT_ENTRY_SIZE);

    st16(mi + DDP_META_INIT_COUNT, 1);
    st16(mi + DDP_META_INIT_OFFSET, DDP_META_VLAN_MODE_ENTRY);
}

void ddp_gen_spec_default(DdpGenSpec *s)
{
    memset(s, 0, sizeof(*s));
    s->ver[DDP_VER_MAJOR] = DDP_SYNTH_VER_MAJOR;
    s->ver[DDP_VER_MINOR] = DDP_SYNTH_VER_MINOR;
    s->ver[DDP_VER_UPDATE] = DDP_SYNTH_VER_UPDATE;
    s->ver[DDP_VER_DRAFT] = DDP_SYNTH_VER_DRAFT;
    G_STATIC_ASSERT(sizeof(DDP_SYNTH_NAME) <= DDP_META_NAME_SIZE);
    memcpy(s->name, DDP_SYNTH_NAME, sizeof(DDP_SYNTH_NAME));
    s->track_id = DDP_SYNTH_TRACK_ID;
    s->download = false;
}

bool ddp_gen_set_name(DdpGenSpec *s, const char *name, GError **errp)
{
    size_t n = strlen(name);

    if (n == 0 || n >= DDP_META_NAME_SIZE) {
        g_set_error(errp, DDP_GEN_ERROR, 0, "package name must be 1..%d characters, not %zu",
                    DDP_META_NAME_SIZE - 1, n);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!g_ascii_isprint(name[i])) {
            g_set_error(errp, DDP_GEN_ERROR, 0, "package name must be printable ASCII");
            return false;
        }
    }
    memset(s->name, 0, sizeof(s->name));
    memcpy(s->name, name, n);
    return true;
}

bool ddp_gen_parse_version(const char *str, uint8_t ver[DDP_VER_SIZE], GError **errp)
{
    g_auto(GStrv) parts = g_strsplit(str, ".", -1);
    uint8_t v[DDP_VER_SIZE];

    if (g_strv_length(parts) != DDP_VER_SIZE) {
        g_set_error(errp, DDP_GEN_ERROR, 0,
                    "version '%s' is not MAJOR.MINOR.UPDATE.DRAFT", str);
        return false;
    }
    for (unsigned i = 0; i < DDP_VER_SIZE; i++) {
        guint64 n;

        if (!g_ascii_string_to_unsigned(parts[i], 10, 0, 255, &n, NULL)) {
            g_set_error(errp, DDP_GEN_ERROR, 0,
                        "version '%s': component '%s' is not a number 0..255", str, parts[i]);
            return false;
        }
        v[i] = n;
    }
    memcpy(ver, v, DDP_VER_SIZE);
    return true;
}

/* Where ddp_gen_build puts things: the package header with one segment offset, then the ICE
 * segment right after it: generic header, empty device table, empty NVM table, buffer count,
 * buffers. */
#define GEN_SEG_OFF     (DDP_PKG_HDR_SEG_OFFSET + DDP_PKG_SEG_OFFSET_SIZE)
#define GEN_DEV_TBL     (GEN_SEG_OFF + DDP_ICE_SEG_DEV_TABLE_COUNT)
#define GEN_NVM_TBL     (GEN_DEV_TBL + DDP_TABLE_COUNT_SIZE)
#define GEN_BUF_TBL     (GEN_NVM_TBL + DDP_TABLE_COUNT_SIZE)
#define GEN_BUFS        (GEN_BUF_TBL + DDP_TABLE_COUNT_SIZE)

uint8_t *ddp_gen_build(const DdpGenSpec *s, size_t *len)
{
    const unsigned nbufs = s->download ? 2 : 1;
    const size_t total = GEN_BUFS + (size_t)nbufs * DDP_BUF_SIZE;
    uint8_t *p = g_malloc0(total);
    uint8_t *seg = p + GEN_SEG_OFF;
    BufBuild bb;

    /* ice_verify_pkg: format 1.0.0.0, at least one segment, every segment inside the file. */
    p[DDP_PKG_HDR_FMT_VER + DDP_VER_MAJOR] = DDP_FMT_VER_MAJOR;
    p[DDP_PKG_HDR_FMT_VER + DDP_VER_MINOR] = DDP_FMT_VER_MINOR;
    p[DDP_PKG_HDR_FMT_VER + DDP_VER_UPDATE] = DDP_FMT_VER_UPDATE;
    p[DDP_PKG_HDR_FMT_VER + DDP_VER_DRAFT] = DDP_FMT_VER_DRAFT;
    st32(p + DDP_PKG_HDR_SEG_COUNT, 1);
    st32(p + DDP_PKG_HDR_SEG_OFFSET, GEN_SEG_OFF);

    /* ice_find_seg_in_pkg: the ICE segment; its size covers all its buffers. */
    st32(seg + DDP_SEG_HDR_TYPE, DDP_SEG_TYPE_ICE);
    seg[DDP_SEG_HDR_FMT_VER + DDP_VER_MAJOR] = DDP_SYNTH_SEG_FMT_MAJOR;
    seg[DDP_SEG_HDR_FMT_VER + DDP_VER_MINOR] = DDP_SYNTH_SEG_FMT_MINOR;
    st32(seg + DDP_SEG_HDR_SIZE, total - GEN_SEG_OFF);
    G_STATIC_ASSERT(sizeof(DDP_SYNTH_SEG_ID) <= DDP_SEG_ID_SIZE);
    memcpy(seg + DDP_SEG_HDR_ID, DDP_SYNTH_SEG_ID, sizeof(DDP_SYNTH_SEG_ID));

    /* ice_find_buf_table: device table and NVM table empty, then the buffer table. */
    st32(p + GEN_DEV_TBL, 0);
    st32(p + GEN_NVM_TBL, 0);
    st32(p + GEN_BUF_TBL, nbufs);

    if (s->download) {
        /* A configuration buffer (first section not metadata) that ice downloads; the
         * firmware learns the package's name and version from its metadata section. */
        buf_init(&bb, p + GEN_BUFS, 2);
        add_metadata(&bb, s);
        add_meta_init(&bb);
        /* Then a metadata buffer: ice stops downloading there, and marks buffer 0 last. */
        buf_init(&bb, p + GEN_BUFS + DDP_BUF_SIZE, 2);
        add_tunnel_labels(&bb);
        add_tunnel_boost_tcam(&bb);
    } else {
        /* The only buffer is a metadata buffer: ice_dwnld_cfg_bufs returns success at once. */
        buf_init(&bb, p + GEN_BUFS, 3);
        add_tunnel_labels(&bb);
        add_metadata(&bb, s);
        add_tunnel_boost_tcam(&bb);
    }
    *len = total;
    return p;
}

const uint8_t *ddp_gen_bufs(const uint8_t *pkg, unsigned *count)
{
    *count = ld32(pkg + GEN_BUF_TBL);
    return pkg + GEN_BUFS;
}
