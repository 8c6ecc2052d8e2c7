/* test_fw_nvm.c - AQ handlers of fw/nvm.c: good commands, and malformed ones answered with the
 * firmware's error codes.
 *
 * The image is decoded here the way ice 6.1 and 6.12/7.3 decode it (ice_nvm.c, ice_type.h), with
 * the driver's word offsets written out below rather than taken from fw/nvm.c, so a layout
 * mistake in the model shows up as a failing test. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include "aq_util.h"
#include "emu/core/e810_regs.h"
#include "emu/fw/fw.h"
#include "emu/fw/nvm.h"
#include "emu/core/le.h"

/* What ice reads (ice_type.h, ice_adminq_cmd.h) */
#define ICE_AQC_NVM_FLASH_ONLY          0x80
#define ICE_AQC_NVM_LAST_CMD            0x01
#define ICE_AQC_NVM_MAX_OFFSET          0xFFFFFFu
#define ICE_AQC_NVM_CHECKSUM_VERIFY     0x01
#define ICE_AQC_NVM_CHECKSUM_RECALC     0x02
#define ICE_AQC_NVM_CHECKSUM_CORRECT    0xBABA
#define ICE_SR_NVM_CTRL_WORD            0x00
#define ICE_SR_PBA_BLOCK_PTR            0x16
#define ICE_SR_NVM_DEV_STARTER_VER      0x18
#define ICE_SR_NVM_WOL_CFG              0x19
#define ICE_SR_NVM_EETRACK_LO           0x2D
#define ICE_SR_NVM_EETRACK_HI           0x2E
#define ICE_SR_PFA_PTR                  0x40
#define ICE_SR_1ST_NVM_BANK_PTR         0x42
#define ICE_SR_NVM_BANK_SIZE            0x43
#define ICE_SR_1ST_OROM_BANK_PTR        0x44
#define ICE_SR_OROM_BANK_SIZE           0x45
#define ICE_SR_NETLIST_BANK_PTR         0x46
#define ICE_SR_NETLIST_BANK_SIZE        0x47
#define ICE_SR_LINK_DEFAULT_OVERRIDE_PTR 0x134
#define ICE_SR_CTRL_WORD_OROM_BANK      0x08
#define ICE_SR_CTRL_WORD_NETLIST_BANK   0x10
#define ICE_SR_CTRL_WORD_NVM_BANK       0x20
#define ICE_SR_NVM_PTR_4KB_UNITS        0x8000
#define ICE_NVM_SR_COPY_WORD_OFFSET     352     /* 6.1: roundup(ICE_CSS_HEADER_LENGTH 330, 32) */
#define ICE_NVM_CSS_HDR_LEN_L           0x02    /* 6.12, 7.3 */
#define ICE_NVM_CSS_HDR_LEN_H           0x03
#define ICE_NVM_AUTH_HEADER_LEN         0x08
#define ICE_AQC_NVM_TX_TOPO_MOD_ID      0x14B
#define ICE_AQC_NVM_TX_TOPO_USER_SEL    0x10
#define ICE_NETLIST_LINK_TOPO_MOD_ID    0x011B
#define ICE_NETLIST_ID_BLK_SIZE         0x30
#define ICE_SR_WORDS_IN_1KB             512
#define ICE_AQ_MAX_BUF_LEN              4096
#define CIVD_SIZE                       74

/* One 0x0701 as ice_aq_read_nvm builds it; the buffer is @datalen bytes. */
static uint16_t nvm_read_raw(uint32_t off, uint16_t len, uint8_t flags, uint16_t module,
                             void *buf, uint16_t datalen, AqtResp *r)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 };

    st16(p + 0, off & 0xFFFF);
    p[2] = (off >> 16) & 0xFF;
    p[3] = flags;
    st16(p + 4, module);
    st16(p + 6, len);
    return aqt_send(h, d, AQC_NVM_READ, 0, p, buf, datalen, r);
}

static uint16_t nvm_read(uint32_t off, uint16_t len, bool flash, void *buf)
{
    return nvm_read_raw(off, len, (flash ? ICE_AQC_NVM_FLASH_ONLY : 0) | ICE_AQC_NVM_LAST_CMD, 0,
                        buf, len, NULL);
}

/* ice_read_flat_nvm: 4 KiB pieces that do not cross a 4 KiB boundary. */
static uint16_t flat_read(uint32_t off, uint32_t len, bool flash, uint8_t *data)
{
    uint32_t done = 0;

    while (done < len) {
        uint32_t n = MIN(ICE_AQ_MAX_BUF_LEN - off % ICE_AQ_MAX_BUF_LEN, len - done);
        uint16_t rc = nvm_read(off, n, flash, data + done);

        if (rc) {
            return rc;
        }
        done += n;
        off += n;
    }
    return AQ_RC_OK;
}

static uint16_t sr_word(unsigned w)
{
    uint8_t b[2];

    ck_assert_uint_eq(nvm_read(w * 2, 2, false, b), AQ_RC_OK);
    return ld16(b);
}

static uint16_t flash_word(uint32_t byte_off)
{
    uint8_t b[2];

    ck_assert_uint_eq(nvm_read(byte_off, 2, true, b), AQ_RC_OK);
    return ld16(b);
}

/* ice_read_sr_pointer / ice_read_sr_area_size */
static uint32_t sr_pointer(unsigned w)
{
    uint16_t v = sr_word(w);

    return (v & ICE_SR_NVM_PTR_4KB_UNITS) ? (uint32_t)(v & ~ICE_SR_NVM_PTR_4KB_UNITS) * 4096
                                          : v * 2u;
}

static uint32_t sr_area_size(unsigned w)
{
    return sr_word(w) * 4096u;
}

/* Start of the active (@active) or inactive bank of the module at pointer word @ptr_w. */
static uint32_t bank_start(unsigned ptr_w, unsigned size_w, uint16_t bank_bit, bool active)
{
    bool second = sr_word(ICE_SR_NVM_CTRL_WORD) & bank_bit;

    return sr_pointer(ptr_w) + ((second == active) ? sr_area_size(size_w) : 0);
}

typedef struct NvmInfo {
    unsigned major, minor;
    uint32_t eetrack;
} NvmInfo;

typedef struct OromInfo {
    unsigned major, build, patch;
} OromInfo;

typedef struct NetlistInfo {
    uint32_t major, minor, type, rev, hash;
    uint16_t cust_ver;
} NetlistInfo;

/* 6.12/7.3 ice_get_nvm_css_hdr_len, and ice_read_nvm_sr_copy's roundup: the word offset of the
 * shadow RAM copy in the NVM bank starting at byte @bank. */
static uint32_t css_sr_copy_word(uint32_t bank)
{
    uint32_t dwords = ((uint32_t)flash_word(bank + 2 * ICE_NVM_CSS_HDR_LEN_H) << 16) |
                      flash_word(bank + 2 * ICE_NVM_CSS_HDR_LEN_L);
    uint32_t hdr_len = dwords * 2 + ICE_NVM_AUTH_HEADER_LEN;

    return (hdr_len + 31) / 32 * 32;
}

/* ice_get_nvm_ver_info, with the shadow RAM copy where 6.1 (@css_len false) or 6.12/7.3
 * (@css_len true) look for it. */
static NvmInfo get_nvm_info_at(bool active, bool css_len)
{
    uint32_t bank = bank_start(ICE_SR_1ST_NVM_BANK_PTR, ICE_SR_NVM_BANK_SIZE,
                               ICE_SR_CTRL_WORD_NVM_BANK, active);
    uint32_t copy = bank + 2 * (css_len ? css_sr_copy_word(bank) : ICE_NVM_SR_COPY_WORD_OFFSET);
    uint16_t ver = flash_word(copy + 2 * ICE_SR_NVM_DEV_STARTER_VER);
    NvmInfo n;

    n.major = (ver & 0xF000) >> 12;
    n.minor = ver & 0xFF;
    n.eetrack = ((uint32_t)flash_word(copy + 2 * ICE_SR_NVM_EETRACK_HI) << 16) |
                flash_word(copy + 2 * ICE_SR_NVM_EETRACK_LO);
    return n;
}

static NvmInfo get_nvm_info(bool active)
{
    return get_nvm_info_at(active, false);
}

/* ice_get_orom_civd_data / ice_get_orom_ver_info: false if no valid CIVD block. */
static bool get_orom_info(bool active, OromInfo *o, unsigned *civd_off)
{
    uint32_t bank = bank_start(ICE_SR_1ST_OROM_BANK_PTR, ICE_SR_OROM_BANK_SIZE,
                               ICE_SR_CTRL_WORD_OROM_BANK, active);
    uint32_t size = sr_area_size(ICE_SR_OROM_BANK_SIZE);
    uint8_t *data = g_malloc0(size);
    bool found = false;

    ck_assert_uint_eq(flat_read(bank, size, true, data), AQ_RC_OK);
    for (uint32_t off = 0; off + 512 <= size; off += 512) {
        uint8_t sum = 0;
        uint32_t combo;

        if (memcmp(data + off, "$CIV", 4) != 0) {
            continue;
        }
        for (unsigned i = 0; i < CIVD_SIZE; i++) {
            sum += data[off + i];
        }
        if (sum) {
            break;
        }
        combo = ld32(data + off + 5);
        o->major = (combo >> 24) & 0xFF;
        o->build = (combo >> 8) & 0xFFFF;
        o->patch = combo & 0xFF;
        *civd_off = off;
        found = true;
        break;
    }
    g_free(data);
    return found;
}

/* ice_get_netlist_info */
static NetlistInfo get_netlist_info(bool active)
{
    uint32_t bank = bank_start(ICE_SR_NETLIST_BANK_PTR, ICE_SR_NETLIST_BANK_SIZE,
                               ICE_SR_CTRL_WORD_NETLIST_BANK, active);
    uint8_t raw[2 * ICE_NETLIST_ID_BLK_SIZE];
    uint16_t id[ICE_NETLIST_ID_BLK_SIZE];
    unsigned nodes;
    NetlistInfo n;

    ck_assert_uint_eq(flash_word(bank + 0), ICE_NETLIST_LINK_TOPO_MOD_ID);
    ck_assert_uint_ge(flash_word(bank + 2 * 2), ICE_NETLIST_ID_BLK_SIZE);
    nodes = flash_word(bank + 2 * 3) & 0x3FF;
    ck_assert_uint_eq(flat_read(bank + 2 * (6 + 2 * nodes), sizeof(raw), true, raw), AQ_RC_OK);
    for (unsigned i = 0; i < ICE_NETLIST_ID_BLK_SIZE; i++) {
        id[i] = ld16(raw + 2 * i);
    }
    n.major = (uint32_t)id[0x03] << 16 | id[0x02];
    n.minor = (uint32_t)id[0x05] << 16 | id[0x04];
    n.type = (uint32_t)id[0x07] << 16 | id[0x06];
    n.rev = (uint32_t)id[0x09] << 16 | id[0x08];
    n.cust_ver = id[0x2F];
    n.hash = (uint32_t)id[0x0A + 15] << 16 | id[0x0A + 14];
    return n;
}

/* ice_get_pfa_module_tlv: 0 and the TLV's word and length, or ENOENT / EINVAL (negative). */
static int pfa_tlv(uint16_t type, uint16_t *tlv, uint16_t *tlv_len)
{
    uint16_t pfa = sr_word(ICE_SR_PFA_PTR);
    uint16_t len = sr_word(pfa);
    uint32_t max = (uint32_t)pfa + len - 1;
    uint32_t next = pfa + 1;

    ck_assert_uint_le(max, 0xFFFF);
    while (next < max) {
        uint16_t t = sr_word(next), l = sr_word(next + 1);

        if (t == type) {
            if (!l) {
                return -EINVAL;
            }
            *tlv = next;
            *tlv_len = l;
            return 0;
        }
        next += 2u + l;
        ck_assert_uint_le(next, 0xFFFF);
    }
    return -ENOENT;
}

/* ice_read_pba_string into @out (128 bytes, like ice_info_ctx.buf) */
static int read_pba(char *out, size_t cap)
{
    uint16_t tlv, tlv_len, size;
    int rc = pfa_tlv(ICE_SR_PBA_BLOCK_PTR, &tlv, &tlv_len);

    if (rc) {
        return rc;
    }
    size = sr_word(tlv + 2);
    if (tlv_len < size) {
        return -EINVAL;
    }
    size--;
    if (cap < (size_t)size * 2 + 1) {
        return -EINVAL;
    }
    for (unsigned i = 0; i < size; i++) {
        uint16_t w = sr_word(tlv + 3 + i);

        out[2 * i] = w >> 8;
        out[2 * i + 1] = w & 0xFF;
    }
    out[2 * size] = '\0';
    return 0;
}

START_TEST(control_word_is_valid_with_first_banks_active)
{
    uint16_t ctrl = sr_word(ICE_SR_NVM_CTRL_WORD);

    ck_assert_uint_eq((ctrl >> 6) & 0x3, 0x1);
    ck_assert_uint_eq(ctrl & (ICE_SR_CTRL_WORD_OROM_BANK | ICE_SR_CTRL_WORD_NETLIST_BANK |
                              ICE_SR_CTRL_WORD_NVM_BANK), 0);
}
END_TEST

START_TEST(bank_pointers_are_nonzero_and_inside_flash)
{
    static const unsigned ptrs[] = { ICE_SR_1ST_NVM_BANK_PTR, ICE_SR_1ST_OROM_BANK_PTR,
                                     ICE_SR_NETLIST_BANK_PTR };
    uint32_t start[3], end[3];

    for (unsigned i = 0; i < 3; i++) {
        uint32_t size = sr_area_size(ptrs[i] + 1);

        start[i] = sr_pointer(ptrs[i]);
        ck_assert_uint_ne(start[i], 0);
        ck_assert_uint_ne(size, 0);
        ck_assert_uint_eq(start[i] % 4096, 0);
        /* Both banks of the module inside the flash. */
        end[i] = start[i] + 2 * size;
        ck_assert_uint_le(end[i], FW_NVM_FLASH_SIZE);
    }
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned j = i + 1; j < 3; j++) {
            ck_assert(end[i] <= start[j] || end[j] <= start[i]);
        }
    }
    /* The NVM bank holds the CSS header and the whole shadow RAM copy. */
    ck_assert_uint_ge(sr_area_size(ICE_SR_NVM_BANK_SIZE),
                      2 * ICE_NVM_SR_COPY_WORD_OFFSET + FW_NVM_SR_SIZE);
}
END_TEST

/* ice_discover_flash_size: exactly EINVAL means "beyond the end". */
START_TEST(flash_size_bisection_converges_to_flash_size)
{
    uint32_t min = 0, max = ICE_AQC_NVM_MAX_OFFSET + 1;
    unsigned reads = 0;

    while (max - min > 1) {
        uint32_t off = (max + min) / 2;
        uint8_t b;
        uint16_t rc = nvm_read(off, 1, true, &b);

        reads++;
        if (rc == AQ_RC_EINVAL) {
            max = off;
        } else {
            ck_assert_uint_eq(rc, AQ_RC_OK);
            min = off;
        }
    }
    ck_assert_uint_eq(max, FW_NVM_FLASH_SIZE);
    ck_assert_uint_eq(reads, 24);
}
END_TEST

START_TEST(sr_size_agrees_with_glnvm_gens)
{
    uint32_t gens = irdma_dev_mmio_read(d, GLNVM_GENS);
    unsigned sr_size = (gens & GLNVM_GENS_SR_SIZE_M) >> 5;

    ck_assert_uint_eq((1u << sr_size) * ICE_SR_WORDS_IN_1KB, FW_NVM_SR_WORDS);
    ck_assert(irdma_dev_mmio_read(d, GLNVM_FLA) & GLNVM_FLA_LOCKED_M);
}
END_TEST

START_TEST(nvm_version_and_eetrack_decode_to_constants)
{
    NvmInfo n = get_nvm_info(true);

    ck_assert_uint_eq(n.major, FW_NVM_VER_MAJOR);
    ck_assert_uint_eq(n.minor, FW_NVM_VER_MINOR);
    ck_assert_uint_eq(n.eetrack, FW_NVM_EETRACK);
    /* The shadow RAM is what the active bank's copy holds. */
    ck_assert_uint_eq(sr_word(ICE_SR_NVM_DEV_STARTER_VER),
                      (FW_NVM_VER_MAJOR << 12) | FW_NVM_VER_MINOR);
    ck_assert_uint_eq(sr_word(ICE_SR_NVM_EETRACK_LO), FW_NVM_EETRACK & 0xFFFF);
    ck_assert_uint_eq(sr_word(ICE_SR_NVM_EETRACK_HI), FW_NVM_EETRACK >> 16);
}
END_TEST

/* ice 6.12 on: the CSS header length puts the copy where 6.1 assumes it, in both banks, so
 * "ethtool -i" and devlink show the same NVM version on every kernel. */
START_TEST(css_header_length_locates_the_sr_copy_like_6_1)
{
    for (int active = 0; active < 2; active++) {
        uint32_t bank = bank_start(ICE_SR_1ST_NVM_BANK_PTR, ICE_SR_NVM_BANK_SIZE,
                                   ICE_SR_CTRL_WORD_NVM_BANK, active);
        NvmInfo n = get_nvm_info_at(active, true);

        ck_assert_uint_eq(flash_word(bank + 2 * ICE_NVM_CSS_HDR_LEN_L), (330 - 8) / 2);
        ck_assert_uint_eq(flash_word(bank + 2 * ICE_NVM_CSS_HDR_LEN_H), 0);
        ck_assert_uint_eq(css_sr_copy_word(bank), ICE_NVM_SR_COPY_WORD_OFFSET);
        ck_assert_uint_eq(n.major, FW_NVM_VER_MAJOR);
        ck_assert_uint_eq(n.minor, FW_NVM_VER_MINOR);
        ck_assert_uint_eq(n.eetrack, FW_NVM_EETRACK);
    }
}
END_TEST

START_TEST(sr_copy_in_nvm_bank_equals_shadow_ram)
{
    uint32_t copy = sr_pointer(ICE_SR_1ST_NVM_BANK_PTR) + 2 * ICE_NVM_SR_COPY_WORD_OFFSET;
    uint8_t *sr = g_malloc(FW_NVM_SR_SIZE), *fl = g_malloc(FW_NVM_SR_SIZE);

    ck_assert_uint_eq(flat_read(0, FW_NVM_SR_SIZE, false, sr), AQ_RC_OK);
    ck_assert_uint_eq(flat_read(copy, FW_NVM_SR_SIZE, true, fl), AQ_RC_OK);
    ck_assert_mem_eq(sr, fl, FW_NVM_SR_SIZE);
    g_free(sr);
    g_free(fl);
}
END_TEST

START_TEST(orom_civd_block_sums_to_zero_and_decodes)
{
    OromInfo o;
    unsigned off;
    uint8_t civd[CIVD_SIZE];
    uint8_t sum = 0;
    uint32_t bank = sr_pointer(ICE_SR_1ST_OROM_BANK_PTR);

    ck_assert(get_orom_info(true, &o, &off));
    ck_assert_uint_eq(off % 512, 0);
    ck_assert_uint_eq(o.major, FW_NVM_OROM_MAJOR);
    ck_assert_uint_eq(o.build, FW_NVM_OROM_BUILD);
    ck_assert_uint_eq(o.patch, FW_NVM_OROM_PATCH);
    ck_assert_uint_eq(flat_read(bank + off, sizeof(civd), true, civd), AQ_RC_OK);
    for (unsigned i = 0; i < sizeof(civd); i++) {
        sum += civd[i];
    }
    ck_assert_uint_eq(sum, 0);
    ck_assert_uint_le(civd[9], 32);                      /* combo_name_len */
}
END_TEST

START_TEST(netlist_id_block_decodes_to_constants)
{
    NetlistInfo n = get_netlist_info(true);

    ck_assert_uint_eq(n.major, FW_NVM_NETLIST_MAJOR);
    ck_assert_uint_eq(n.minor, FW_NVM_NETLIST_MINOR);
    ck_assert_uint_eq(n.type, FW_NVM_NETLIST_TYPE);
    ck_assert_uint_eq(n.rev, FW_NVM_NETLIST_REV);
    ck_assert_uint_eq(n.cust_ver, FW_NVM_NETLIST_CUST_VER);
    ck_assert_uint_eq(n.hash, FW_NVM_NETLIST_HASH);
}
END_TEST

/* devlink info reads the inactive banks when an update is pending: they match. */
START_TEST(inactive_banks_hold_the_same_versions)
{
    NvmInfo a = get_nvm_info(true), i = get_nvm_info(false);
    NetlistInfo na = get_netlist_info(true), ni = get_netlist_info(false);
    OromInfo oa, oi;
    unsigned off;

    ck_assert_uint_eq(a.major, i.major);
    ck_assert_uint_eq(a.minor, i.minor);
    ck_assert_uint_eq(a.eetrack, i.eetrack);
    ck_assert(get_orom_info(true, &oa, &off));
    ck_assert(get_orom_info(false, &oi, &off));
    ck_assert_uint_eq(oa.build, oi.build);
    ck_assert_uint_eq(na.hash, ni.hash);
    ck_assert_uint_eq(na.rev, ni.rev);
}
END_TEST

START_TEST(pfa_pba_string_is_board_id)
{
    char pba[128];

    ck_assert_int_eq(read_pba(pba, sizeof(pba)), 0);
    ck_assert_str_eq(pba, FW_NVM_DEVLINK_BOARD_ID);
}
END_TEST

START_TEST(pfa_link_override_tlv_present_and_disabled)
{
    uint16_t tlv = 0, len = 0;

    ck_assert_int_eq(pfa_tlv(ICE_SR_LINK_DEFAULT_OVERRIDE_PTR, &tlv, &len), 0);
    /* Port 0's record (ice_get_link_default_override): options word, FEC word, PHY masks. */
    ck_assert_uint_ge(len, 10);
    for (unsigned i = 0; i < 10; i++) {
        ck_assert_uint_eq(sr_word(tlv + 2 + i), 0);
    }
    /* A type the PFA does not hold is ENOENT, as ice expects for absent modules. */
    ck_assert_int_eq(pfa_tlv(0x0999, &tlv, &len), -ENOENT);
}
END_TEST

START_TEST(wol_is_unsupported_for_pf0)
{
    ck_assert(sr_word(ICE_SR_NVM_WOL_CFG) & 0x1);
}
END_TEST

/* The formats of __ice_get_drvinfo and ice_info_* applied to the decoded image. */
START_TEST(version_strings_match_ice_formats)
{
    NvmInfo n = get_nvm_info(true);
    NetlistInfo nl = get_netlist_info(true);
    OromInfo o;
    unsigned off;
    char buf[128];

    ck_assert(get_orom_info(true, &o, &off));
    snprintf(buf, sizeof(buf), "%x.%02x 0x%x %d.%d.%d", n.major, n.minor, n.eetrack,
             (int)o.major, (int)o.build, (int)o.patch);
    ck_assert_str_eq(buf, FW_NVM_ETHTOOL_FW_VERSION);
    ck_assert_uint_lt(strlen(buf), 32);                  /* ETHTOOL_FWVERS_LEN */
    snprintf(buf, sizeof(buf), "%u.%u.%u", o.major, o.build, o.patch);
    ck_assert_str_eq(buf, FW_NVM_DEVLINK_UNDI);
    snprintf(buf, sizeof(buf), "%x.%02x", n.major, n.minor);
    ck_assert_str_eq(buf, FW_NVM_DEVLINK_PSID_API);
    snprintf(buf, sizeof(buf), "0x%08x", n.eetrack);
    ck_assert_str_eq(buf, FW_NVM_DEVLINK_BUNDLE_ID);
    snprintf(buf, sizeof(buf), "%x.%x.%x-%x.%x.%x", nl.major, nl.minor, nl.type >> 16,
             nl.type & 0xFFFF, nl.rev, nl.cust_ver);
    ck_assert_str_eq(buf, FW_NVM_DEVLINK_NETLIST);
    snprintf(buf, sizeof(buf), "0x%08x", nl.hash);
    ck_assert_str_eq(buf, FW_NVM_DEVLINK_NETLIST_BUILD);
}
END_TEST

/* The devlink shadow-ram snapshot: 64 KiB in 4 KiB reads; the words sum to 0xBABA. */
START_TEST(whole_sr_reads_and_sums_to_checksum)
{
    uint8_t *sr = g_malloc(FW_NVM_SR_SIZE);
    uint16_t sum = 0;

    ck_assert_uint_eq(flat_read(0, FW_NVM_SR_SIZE, false, sr), AQ_RC_OK);
    for (unsigned w = 0; w < FW_NVM_SR_WORDS; w++) {
        sum += ld16(sr + 2 * w);
    }
    ck_assert_uint_eq(sum, ICE_AQC_NVM_CHECKSUM_CORRECT);
    g_free(sr);
}
END_TEST

/* ice_nvm_validate_checksum (ethtool -t eeprom test) */
START_TEST(checksum_verify_reports_correct)
{
    uint8_t p[AQ_PARAMS_SIZE] = { ICE_AQC_NVM_CHECKSUM_VERIFY };
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_NVM_CHECKSUM, 0, p, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2), ICE_AQC_NVM_CHECKSUM_CORRECT);
    p[0] = ICE_AQC_NVM_CHECKSUM_RECALC;
    ck_assert_uint_eq(aqt_send(h, d, AQC_NVM_CHECKSUM, 0, p, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2), ICE_AQC_NVM_CHECKSUM_CORRECT);
}
END_TEST

START_TEST(checksum_without_flags_is_einval)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 };

    ck_assert_uint_eq(aqt_send(h, d, AQC_NVM_CHECKSUM, 0, p, NULL, 0, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_nvm_checksum_bad_flags"), 1);
}
END_TEST

/* Byte-granular reads (the bisection, ethtool -e at any offset) see the same bytes. */
START_TEST(odd_byte_reads_match_word_reads)
{
    uint8_t w[4], b;

    ck_assert_uint_eq(nvm_read(0x18 * 2, 4, false, w), AQ_RC_OK);
    ck_assert_uint_eq(nvm_read(0x18 * 2 + 1, 1, false, &b), AQ_RC_OK);
    ck_assert_uint_eq(b, w[1]);
    ck_assert_uint_eq(nvm_read(sr_pointer(ICE_SR_NETLIST_BANK_PTR) + 1, 1, true, &b), AQ_RC_OK);
    ck_assert_uint_eq(b, ICE_NETLIST_LINK_TOPO_MOD_ID >> 8);
}
END_TEST

START_TEST(last_flash_byte_reads_and_erased_flash_is_ff)
{
    uint8_t b[16];

    ck_assert_uint_eq(nvm_read(FW_NVM_FLASH_SIZE - 1, 1, true, b), AQ_RC_OK);
    ck_assert_uint_eq(b[0], 0xFF);
    ck_assert_uint_eq(nvm_read(FW_NVM_FLASH_SIZE - 16, 16, true, b), AQ_RC_OK);
    ck_assert_uint_eq(nvm_read(FW_NVM_SR_SIZE - 2, 2, false, b), AQ_RC_OK);
}
END_TEST

START_TEST(response_datalen_is_the_read_length)
{
    uint8_t buf[64];
    AqtResp r;

    /* A buffer larger than the requested length: only length bytes are valid. */
    ck_assert_uint_eq(nvm_read_raw(0, 2, ICE_AQC_NVM_LAST_CMD, 0, buf, sizeof(buf), &r),
                      AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 2);
    ck_assert(!(r.flags & AQ_FLAG_ERR));
}
END_TEST

START_TEST(flash_read_beyond_end_is_einval)
{
    uint8_t buf[8] = { 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a };
    AqtResp r;

    ck_assert_uint_eq(nvm_read_raw(FW_NVM_FLASH_SIZE, 1, ICE_AQC_NVM_FLASH_ONLY, 0, buf, 1, &r),
                      AQ_RC_EINVAL);
    ck_assert(r.flags & AQ_FLAG_ERR);
    ck_assert_uint_eq(nvm_read(ICE_AQC_NVM_MAX_OFFSET, 1, true, buf), AQ_RC_EINVAL);
    /* Starting inside, ending outside. */
    ck_assert_uint_eq(nvm_read(FW_NVM_FLASH_SIZE - 2, 4, true, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "nvm_read_out_of_range"), 3);
}
END_TEST

START_TEST(failed_read_writes_no_data)
{
    uint8_t buf[8];
    AqtResp r;

    memset(buf, 0x5a, sizeof(buf));
    ck_assert_uint_eq(nvm_read_raw(FW_NVM_FLASH_SIZE - 2, 8, ICE_AQC_NVM_FLASH_ONLY, 0, buf,
                                   sizeof(buf), &r), AQ_RC_EINVAL);
    ck_assert_uint_eq(r.datalen, 0);
    for (unsigned i = 0; i < sizeof(buf); i++) {
        ck_assert_uint_eq(buf[i], 0x5a);
    }
}
END_TEST

START_TEST(sr_read_beyond_end_is_einval)
{
    uint8_t buf[4096];

    ck_assert_uint_eq(nvm_read(FW_NVM_SR_SIZE, 2, false, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read(FW_NVM_SR_SIZE - 1, 2, false, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read(0xFFFFFE, 2, false, buf), AQ_RC_EINVAL);
    /* A flash offset that is fine as flash is not fine as shadow RAM. */
    ck_assert_uint_eq(nvm_read(FW_NVM_SR_SIZE + 0x1000, 4096, false, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read(FW_NVM_SR_SIZE + 0x1000, 4096, true, buf), AQ_RC_OK);
}
END_TEST

START_TEST(sr_read_crossing_a_sector_is_einval)
{
    uint8_t buf[4096];

    ck_assert_uint_eq(nvm_read(4094, 4, false, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read(2, 4096, false, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_nvm_read_crosses_sector"), 2);
    /* Flash reads have no such restriction. */
    ck_assert_uint_eq(nvm_read(4094, 4, true, buf), AQ_RC_OK);
    ck_assert_uint_eq(nvm_read(4096, 4096, false, buf), AQ_RC_OK);
}
END_TEST

START_TEST(zero_length_is_einval)
{
    uint8_t buf[16];

    /* Length 0 with a buffer: rejected by the handler. */
    ck_assert_uint_eq(nvm_read_raw(0, 0, 0, 0, buf, sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_nvm_read_bad_length"), 1);
    /* No buffer at all: rejected by the engine. */
    ck_assert_uint_eq(nvm_read_raw(0, 2, 0, 0, NULL, 0, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(length_beyond_buffer_is_einval)
{
    uint8_t buf[16];

    ck_assert_uint_eq(nvm_read_raw(0, 32, 0, 0, buf, sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read_raw(0, 0xFFFF, ICE_AQC_NVM_FLASH_ONLY, 0, buf, sizeof(buf), NULL),
                      AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_nvm_read_bad_length"), 2);
}
END_TEST

START_TEST(oversized_buffer_is_einval)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING;

    /* datalen 8 KiB: more than any AQ buffer; the engine refuses it before the handler. */
    memset(desc, 0, AQ_DESC_SIZE);
    st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_LB | AQ_FLAG_SI);
    st16(desc + AQ_DESC_OPCODE, AQC_NVM_READ);
    st16(desc + AQ_DESC_DATALEN, 8192);
    st16(desc + AQ_DESC_PARAMS + 6, 8192);
    desc[AQ_DESC_PARAMS + 3] = ICE_AQC_NVM_FLASH_ONLY;
    st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L, AQT_ATQ_BUF);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000000);
    ck_assert_uint_eq(ld16(desc + AQ_DESC_RETVAL), AQ_RC_EINVAL);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 1);
}
END_TEST

/* A module the PFA does not hold, or a module read of the flash. */
START_TEST(module_relative_read_is_einval)
{
    uint8_t buf[2];

    ck_assert_uint_eq(nvm_read_raw(0, 2, ICE_AQC_NVM_FLASH_ONLY, ICE_SR_1ST_NVM_BANK_PTR, buf,
                                   sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read_raw(0, 2, 0, 0x0999, buf, sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(nvm_read_raw(0, 2, ICE_AQC_NVM_FLASH_ONLY, ICE_AQC_NVM_TX_TOPO_MOD_ID, buf,
                                   sizeof(buf), NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_nvm_read_bad_module"), 3);
}
END_TEST

/* 6.12/7.3 ice_get_tx_topo_user_sel (devlink param tx_scheduling_layers): a shadow RAM read of
 * module ICE_AQC_NVM_TX_TOPO_MOD_ID, 4 bytes = struct ice_aqc_nvm_tx_topo_user_sel; bit 4 of
 * data clear = 9 layers, as 0x0418 reports. The module is the PFA TLV from its length word. */
START_TEST(tx_topo_user_selection_reads_as_a_module)
{
    uint8_t sel[4];
    uint16_t tlv = 0, len = 0;

    memset(sel, 0xee, sizeof(sel));
    ck_assert_uint_eq(nvm_read_raw(0, sizeof(sel), ICE_AQC_NVM_LAST_CMD,
                                   ICE_AQC_NVM_TX_TOPO_MOD_ID, sel, sizeof(sel), NULL), AQ_RC_OK);
    ck_assert_uint_eq(ld16(sel), 1);                          /* length: one word */
    ck_assert_uint_eq(sel[2] & ICE_AQC_NVM_TX_TOPO_USER_SEL, 0);
    ck_assert_int_eq(pfa_tlv(ICE_AQC_NVM_TX_TOPO_MOD_ID, &tlv, &len), 0);
    ck_assert_uint_eq(len, 1);
    ck_assert_uint_eq(sr_word(tlv + 2), ld16(sel + 2));
    /* Past the module's end. */
    ck_assert_uint_eq(nvm_read_raw(2, 4, ICE_AQC_NVM_LAST_CMD, ICE_AQC_NVM_TX_TOPO_MOD_ID, sel,
                                   sizeof(sel), NULL), AQ_RC_EINVAL);
}
END_TEST

/* Every offset and length a guest can write, in a coarse sweep: answered, never a crash. */
START_TEST(random_params_are_answered)
{
    static uint8_t buf[AQ_MAX_BUF];
    GRand *rnd = g_rand_new_with_seed(0x0701);

    for (unsigned i = 0; i < 300; i++) {
        uint32_t off = g_rand_int(rnd) & 0xFFFFFF;
        uint16_t len = g_rand_int(rnd);
        uint16_t datalen = g_rand_int_range(rnd, 1, AQ_MAX_BUF + 1);
        uint8_t flags = g_rand_int(rnd);
        uint16_t module = (g_rand_int(rnd) & 1) ? 0 : g_rand_int(rnd);
        uint16_t rc = nvm_read_raw(off, len, flags, module, buf, datalen, NULL);

        ck_assert(rc == AQ_RC_OK || rc == AQ_RC_EINVAL);
    }
    g_rand_free(rnd);
    /* The device still answers. */
    ck_assert_uint_eq((sr_word(ICE_SR_NVM_CTRL_WORD) >> 6) & 0x3, 0x1);
}
END_TEST

/* The image is device state: a PF reset (clear_pf_cfg) leaves it as it was. */
START_TEST(pf_reset_keeps_the_image)
{
    ck_assert_uint_eq(aqt_send(h, d, AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(get_nvm_info(true).eetrack, FW_NVM_EETRACK);
}
END_TEST

Suite *fw_nvm_suite(void)
{
    Suite *s = suite_create("fw_nvm");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, control_word_is_valid_with_first_banks_active);
    tcase_add_test(tc, bank_pointers_are_nonzero_and_inside_flash);
    tcase_add_test(tc, flash_size_bisection_converges_to_flash_size);
    tcase_add_test(tc, sr_size_agrees_with_glnvm_gens);
    tcase_add_test(tc, nvm_version_and_eetrack_decode_to_constants);
    tcase_add_test(tc, sr_copy_in_nvm_bank_equals_shadow_ram);
    tcase_add_test(tc, css_header_length_locates_the_sr_copy_like_6_1);
    tcase_add_test(tc, orom_civd_block_sums_to_zero_and_decodes);
    tcase_add_test(tc, netlist_id_block_decodes_to_constants);
    tcase_add_test(tc, inactive_banks_hold_the_same_versions);
    tcase_add_test(tc, pfa_pba_string_is_board_id);
    tcase_add_test(tc, pfa_link_override_tlv_present_and_disabled);
    tcase_add_test(tc, wol_is_unsupported_for_pf0);
    tcase_add_test(tc, version_strings_match_ice_formats);
    tcase_add_test(tc, whole_sr_reads_and_sums_to_checksum);
    tcase_add_test(tc, checksum_verify_reports_correct);
    tcase_add_test(tc, checksum_without_flags_is_einval);
    tcase_add_test(tc, odd_byte_reads_match_word_reads);
    tcase_add_test(tc, last_flash_byte_reads_and_erased_flash_is_ff);
    tcase_add_test(tc, response_datalen_is_the_read_length);
    tcase_add_test(tc, flash_read_beyond_end_is_einval);
    tcase_add_test(tc, failed_read_writes_no_data);
    tcase_add_test(tc, sr_read_beyond_end_is_einval);
    tcase_add_test(tc, sr_read_crossing_a_sector_is_einval);
    tcase_add_test(tc, zero_length_is_einval);
    tcase_add_test(tc, length_beyond_buffer_is_einval);
    tcase_add_test(tc, oversized_buffer_is_einval);
    tcase_add_test(tc, module_relative_read_is_einval);
    tcase_add_test(tc, tx_topo_user_selection_reads_as_a_module);
    tcase_add_test(tc, random_params_are_answered);
    tcase_add_test(tc, pf_reset_keeps_the_image);
    suite_add_tcase(s, tc);
    return s;
}
