/*
 * fw/nvm.c - the NVM image and the commands that read it (see fw/nvm.h).
 *
 * Flash layout (4 KiB sectors; each module has two banks, the second right after the first,
 * and the control word selects bank 1 for all three):
 *   0x000000  64 KiB   erased (0xFF)
 *   0x010000  2x128 KiB NVM banks: CSS header, then a copy of the shadow RAM at word 352
 *   0x050000  2x8 KiB  option ROM banks: PCI expansion-ROM header, "$CIV" block at 0x1200
 *   0x054000  2x4 KiB  netlist banks: link topology module (no nodes) and its ID block
 *   0x056000..FW_NVM_FLASH_SIZE erased
 * The shadow RAM holds the control word, the bank pointers and sizes, the NVM version and
 * EETRACK, the WoL word, the checksum word and the PFA (PBA string, link default override, Tx
 * topology selection). A PFA TLV can also be read as a module (0x0701 with its type as
 * module id, offset 0 = its length word), as ice 6.12/7.3 read the Tx topology selection.
 * Word offsets and field positions are those ice 6.1, 6.12 and 7.3 read (ice_type.h,
 * ice_nvm.[ch]). ice 6.1 assumes a CSS header of 330 words; 6.12 on reads its length from the
 * header (words 2/3, in dwords, plus the 8-word authentication header), so the header says 330.
 */
#include "fw/nvm.h"
#include "core/le.h"
#include "core/trace.h"

/* 0x0701 nvm_read: params (struct ice_aqc_nvm) */
#define NVM_OFFSET_LOW          0       /* le16: byte offset bits 15:0 */
#define NVM_OFFSET_HIGH         2       /* u8: byte offset bits 23:16 */
#define NVM_CMD_FLAGS           3
#define NVM_FLAG_LAST_CMD       0x01
#define NVM_FLAG_FLASH_ONLY     0x80    /* raw flash; clear = shadow RAM */
#define NVM_MODULE_TYPEID       4       /* le16 */
#define NVM_LENGTH              6       /* le16: bytes */
#define NVM_MODULE_START_POINT  0       /* offsets from the start of flash / shadow RAM */

/* 0x0706 nvm_checksum: params (struct ice_aqc_nvm_checksum) */
#define CSUM_FLAGS              0
#define CSUM_FLAG_VERIFY        0x01
#define CSUM_FLAG_RECALC        0x02
#define CSUM_CHECKSUM           2       /* le16, response */

/* Shadow RAM reads may not cross a 4 KiB sector (ice_read_flat_nvm splits them). */
#define SR_SECTOR_SIZE          4096u

/* Shadow RAM words */
#define SR_CTRL_WORD            0x00
#define SR_DEV_STARTER_VER      0x18
#define SR_NVM_WOL_CFG          0x19
#define SR_EETRACK_LO           0x2D
#define SR_EETRACK_HI           0x2E
#define SR_SW_CHECKSUM          0x3F
#define SR_PFA_PTR              0x40
#define SR_NVM_BANK_PTR         0x42
#define SR_NVM_BANK_SIZE        0x43
#define SR_OROM_BANK_PTR        0x44
#define SR_OROM_BANK_SIZE       0x45
#define SR_NETLIST_BANK_PTR     0x46
#define SR_NETLIST_BANK_SIZE    0x47

/* Control word: bits 7:6 = 01b "valid"; bits 3/4/5 = OROM/netlist/NVM second bank (all 0). */
#define SR_CTRL_VALID           (0x1u << 6)
#define SR_PTR_4KB_UNITS        0x8000u
#define FLASH_SECTOR            0x1000u
#define VER_MAJOR_SHIFT         12
/* A set bit disables WoL for that PF: WoL is not modelled, so none has it. */
#define WOL_NONE                0xFFFFu

/* Preserved Field Area: length word, TLVs {type, length, value[length]}, one final word. */
#define PFA_WORD                0x0100
#define TLV_PBA                 0x0016
#define TLV_LINK_OVERRIDE       0x0134
/* Tx scheduler topology selection (ICE_AQC_NVM_TX_TOPO_MOD_ID): one word, bit 4 of its low
 * byte = the 5-layer tree; clear, the default 9 layers. */
#define TLV_TX_TOPO             0x014B
#define TX_TOPO_WORDS           1
/* Link default override: 10 words per port, all zero (no override, port enabled). */
#define LINK_OVERRIDE_PORTS     8
#define LINK_OVERRIDE_PORT_WORDS 10

/* Flash layout (bytes) */
#define NVM_BANK_OFF            0x010000u
#define NVM_BANK_SIZE           0x020000u
#define OROM_BANK_OFF           0x050000u
#define OROM_BANK_SIZE          0x002000u
#define NETLIST_BANK_OFF        0x054000u
#define NETLIST_BANK_SIZE       0x001000u
#define FLASH_IMAGE_END         (NETLIST_BANK_OFF + 2 * NETLIST_BANK_SIZE)
#define FLASH_ERASED            0xFF

/* NVM bank: CSS header of 330 words, shadow RAM copy at roundup(330, 32) words. */
#define CSS_HEADER_WORDS        330
#define NVM_SR_COPY_WORD        352
/* CSS header words: its length in dwords, without the authentication header after it. */
#define CSS_HDR_LEN_L           0x02
#define CSS_HDR_LEN_H           0x03
#define CSS_AUTH_HEADER_WORDS   8
#define CSS_HDR_LEN_DWORDS      ((CSS_HEADER_WORDS - CSS_AUTH_HEADER_WORDS) / 2)

/* Option ROM: PCI expansion ROM header (0x55AA, size in 512-byte units) and the CIVD block,
 * 512-byte aligned. */
#define OROM_SIG0               0x55
#define OROM_SIG1               0xAA
#define OROM_SIZE_BYTE          2
#define OROM_CIVD_OFF           0x1200u
#define CIVD_SIGNATURE          0       /* "$CIV" */
#define CIVD_CHECKSUM           4       /* makes the byte sum of the block 0 */
#define CIVD_COMBO_VER          5       /* le32 */
#define CIVD_NAME_LEN           9       /* UTF-16 characters, <= 32 */
#define CIVD_NAME               10      /* le16[32] */
#define CIVD_NAME_MAX           32
#define CIVD_SIZE               74
#define COMBO_MAJOR_SHIFT       24
#define COMBO_BUILD_SHIFT       8

/* Netlist module (words): TLV header {type, length}, link topology {module length, node
 * count, 2 words, 2 words per node}, then the 0x30-word ID block. */
#define NL_TYPE                 0
#define NL_LEN                  1
#define NL_TOPO_LEN             2
#define NL_NODE_COUNT           3
#define NL_TOPO_RSVD            4       /* 2 words before the nodes, left zero */
#define NL_LINK_TOPO_MOD_ID     0x011B
#define NL_NODES                0
#define NL_ID_BLK               (6 + 2 * NL_NODES)
#define NL_ID_BLK_WORDS         0x30
#define NL_TOPO_WORDS           (4 + 2 * NL_NODES + NL_ID_BLK_WORDS)
#define IDB_MAJOR_LO            0x02
#define IDB_MAJOR_HI            0x03
#define IDB_MINOR_LO            0x04
#define IDB_MINOR_HI            0x05
#define IDB_TYPE_LO             0x06
#define IDB_TYPE_HI             0x07
#define IDB_REV_LO              0x08
#define IDB_REV_HI              0x09
#define IDB_HASH_LO             (0x0A + 14)   /* the SHA's first 4 bytes: words 14 and 15 */
#define IDB_HASH_HI             (0x0A + 15)
#define IDB_CUST_VER            0x2F

G_STATIC_ASSERT(FLASH_IMAGE_END <= FW_NVM_FLASH_SIZE);
G_STATIC_ASSERT(NVM_SR_COPY_WORD * 2 + FW_NVM_SR_SIZE <= NVM_BANK_SIZE);
G_STATIC_ASSERT(NVM_SR_COPY_WORD >= CSS_HEADER_WORDS && NVM_SR_COPY_WORD % 32 == 0);
G_STATIC_ASSERT(CSS_HDR_LEN_DWORDS * 2 + CSS_AUTH_HEADER_WORDS == CSS_HEADER_WORDS);
G_STATIC_ASSERT(OROM_CIVD_OFF % 512 == 0 && OROM_CIVD_OFF + CIVD_SIZE <= OROM_BANK_SIZE);
G_STATIC_ASSERT(NVM_BANK_OFF + 2 * NVM_BANK_SIZE <= OROM_BANK_OFF);
G_STATIC_ASSERT(OROM_BANK_OFF + 2 * OROM_BANK_SIZE <= NETLIST_BANK_OFF);
G_STATIC_ASSERT(sizeof(FW_NVM_PBA) - 1 <= 2 * 64);   /* ice's 128-byte buffer */

struct FwNvm {
    IrdmaDev *d;
    uint8_t sr[FW_NVM_SR_SIZE];
    uint8_t *flash;                 /* FW_NVM_FLASH_SIZE bytes */
};

static void put_word(uint8_t *base, unsigned word, uint16_t v)
{
    st16(base + 2 * word, v);
}

/* A bank pointer word: 4 KiB units with bit 15 set. */
static uint16_t sector_ptr(uint32_t off)
{
    return SR_PTR_4KB_UNITS | (off / FLASH_SECTOR);
}

/* Sum of the shadow RAM words except the checksum word. */
static uint16_t sr_sum_but_checksum(const FwNvm *s)
{
    uint16_t sum = 0;

    for (unsigned w = 0; w < FW_NVM_SR_WORDS; w++) {
        if (w != SR_SW_CHECKSUM) {
            sum += ld16(s->sr + 2 * w);
        }
    }
    return sum;
}

static uint16_t sr_sum(const FwNvm *s)
{
    return sr_sum_but_checksum(s) + ld16(s->sr + 2 * SR_SW_CHECKSUM);
}

/* Sets the checksum word so that all words sum to FW_NVM_CHECKSUM_CORRECT. */
static void sr_update_checksum(FwNvm *s)
{
    put_word(s->sr, SR_SW_CHECKSUM, (uint16_t)(FW_NVM_CHECKSUM_CORRECT - sr_sum_but_checksum(s)));
}

/* Appends TLV @type with @len value words (zero unless @value) at word @at; returns the next
 * free word. */
static unsigned pfa_add_tlv(FwNvm *s, unsigned at, uint16_t type, uint16_t len,
                            const uint16_t *value)
{
    put_word(s->sr, at, type);
    put_word(s->sr, at + 1, len);
    for (unsigned i = 0; i < len; i++) {
        put_word(s->sr, at + 2 + i, value ? value[i] : 0);
    }
    return at + 2 + len;
}

static void build_pfa(FwNvm *s)
{
    const char *pba = FW_NVM_PBA;
    size_t chars = strlen(pba);
    uint16_t pba_tlv[1 + (sizeof(FW_NVM_PBA) + 1) / 2];
    uint16_t nwords = (chars + 1) / 2;
    unsigned at = PFA_WORD + 1;

    /* PBA block: its size in words (the size word included), then two characters per word,
     * the first in the high byte. */
    pba_tlv[0] = 1 + nwords;
    for (unsigned i = 0; i < nwords; i++) {
        uint8_t hi = pba[2 * i];
        uint8_t lo = 2 * i + 1 < chars ? pba[2 * i + 1] : 0;

        pba_tlv[1 + i] = (hi << 8) | lo;
    }
    at = pfa_add_tlv(s, at, TLV_PBA, 1 + nwords, pba_tlv);
    at = pfa_add_tlv(s, at, TLV_LINK_OVERRIDE, LINK_OVERRIDE_PORTS * LINK_OVERRIDE_PORT_WORDS,
                     NULL);
    at = pfa_add_tlv(s, at, TLV_TX_TOPO, TX_TOPO_WORDS, NULL);
    put_word(s->sr, at, 0);                                 /* the final word */
    put_word(s->sr, PFA_WORD, at + 1 - PFA_WORD);           /* length: all of it */
}

static void build_sr(FwNvm *s)
{
    memset(s->sr, 0, sizeof(s->sr));
    put_word(s->sr, SR_CTRL_WORD, SR_CTRL_VALID);
    put_word(s->sr, SR_DEV_STARTER_VER, (FW_NVM_VER_MAJOR << VER_MAJOR_SHIFT) | FW_NVM_VER_MINOR);
    put_word(s->sr, SR_NVM_WOL_CFG, WOL_NONE);
    put_word(s->sr, SR_EETRACK_LO, FW_NVM_EETRACK & 0xFFFF);
    put_word(s->sr, SR_EETRACK_HI, FW_NVM_EETRACK >> 16);
    put_word(s->sr, SR_PFA_PTR, PFA_WORD);
    put_word(s->sr, SR_NVM_BANK_PTR, sector_ptr(NVM_BANK_OFF));
    put_word(s->sr, SR_NVM_BANK_SIZE, NVM_BANK_SIZE / FLASH_SECTOR);
    put_word(s->sr, SR_OROM_BANK_PTR, sector_ptr(OROM_BANK_OFF));
    put_word(s->sr, SR_OROM_BANK_SIZE, OROM_BANK_SIZE / FLASH_SECTOR);
    put_word(s->sr, SR_NETLIST_BANK_PTR, sector_ptr(NETLIST_BANK_OFF));
    put_word(s->sr, SR_NETLIST_BANK_SIZE, NETLIST_BANK_SIZE / FLASH_SECTOR);
    build_pfa(s);
    sr_update_checksum(s);
}

/* NVM bank: a CSS header (only its length is decoded by ice; the rest, security revision
 * included, is zero) and the shadow RAM it loads. */
static void build_nvm_bank(FwNvm *s, uint8_t *bank)
{
    memset(bank, 0, NVM_SR_COPY_WORD * 2);
    put_word(bank, CSS_HDR_LEN_L, CSS_HDR_LEN_DWORDS & 0xFFFF);
    put_word(bank, CSS_HDR_LEN_H, CSS_HDR_LEN_DWORDS >> 16);
    memcpy(bank + NVM_SR_COPY_WORD * 2, s->sr, FW_NVM_SR_SIZE);
}

static void build_orom_bank(uint8_t *bank)
{
    static const char name[] = FW_NVM_DEVLINK_UNDI;
    uint8_t *civd = bank + OROM_CIVD_OFF;
    uint32_t combo = ((uint32_t)FW_NVM_OROM_MAJOR << COMBO_MAJOR_SHIFT) |
                     ((uint32_t)FW_NVM_OROM_BUILD << COMBO_BUILD_SHIFT) | FW_NVM_OROM_PATCH;
    size_t n = MIN(strlen(name), CIVD_NAME_MAX);
    uint8_t sum = 0;

    memset(bank, 0, OROM_BANK_SIZE);
    bank[0] = OROM_SIG0;
    bank[1] = OROM_SIG1;
    bank[OROM_SIZE_BYTE] = OROM_BANK_SIZE / 512;
    memcpy(civd + CIVD_SIGNATURE, "$CIV", 4);
    st32(civd + CIVD_COMBO_VER, combo);
    civd[CIVD_NAME_LEN] = n;
    for (size_t i = 0; i < n; i++) {
        st16(civd + CIVD_NAME + 2 * i, (uint8_t)name[i]);
    }
    civd[CIVD_CHECKSUM] = 0;
    for (unsigned i = 0; i < CIVD_SIZE; i++) {
        sum += civd[i];
    }
    civd[CIVD_CHECKSUM] = (uint8_t)-sum;
}

static void build_netlist_bank(uint8_t *bank)
{
    uint8_t *idb = bank + 2 * NL_ID_BLK;

    put_word(bank, NL_TYPE, NL_LINK_TOPO_MOD_ID);
    put_word(bank, NL_LEN, NL_TOPO_WORDS);
    put_word(bank, NL_TOPO_LEN, NL_TOPO_WORDS);
    put_word(bank, NL_NODE_COUNT, NL_NODES);
    put_word(bank, NL_TOPO_RSVD, 0);
    put_word(bank, NL_TOPO_RSVD + 1, 0);
    memset(idb, 0, 2 * NL_ID_BLK_WORDS);
    put_word(idb, IDB_MAJOR_LO, FW_NVM_NETLIST_MAJOR & 0xFFFF);
    put_word(idb, IDB_MAJOR_HI, FW_NVM_NETLIST_MAJOR >> 16);
    put_word(idb, IDB_MINOR_LO, FW_NVM_NETLIST_MINOR & 0xFFFF);
    put_word(idb, IDB_MINOR_HI, FW_NVM_NETLIST_MINOR >> 16);
    put_word(idb, IDB_TYPE_LO, FW_NVM_NETLIST_TYPE & 0xFFFF);
    put_word(idb, IDB_TYPE_HI, FW_NVM_NETLIST_TYPE >> 16);
    put_word(idb, IDB_REV_LO, FW_NVM_NETLIST_REV & 0xFFFF);
    put_word(idb, IDB_REV_HI, FW_NVM_NETLIST_REV >> 16);
    put_word(idb, IDB_HASH_LO, FW_NVM_NETLIST_HASH & 0xFFFF);
    put_word(idb, IDB_HASH_HI, FW_NVM_NETLIST_HASH >> 16);
    put_word(idb, IDB_CUST_VER, FW_NVM_NETLIST_CUST_VER);
}

/* Both banks of each module hold the same image: no update is pending. Built at the first
 * flash read: 2 MiB that only ice's probe reads. */
static const uint8_t *flash_image(FwNvm *s)
{
    if (!s->flash) {
        s->flash = g_malloc(FW_NVM_FLASH_SIZE);
        memset(s->flash, FLASH_ERASED, FW_NVM_FLASH_SIZE);
        for (unsigned b = 0; b < 2; b++) {
            build_nvm_bank(s, s->flash + NVM_BANK_OFF + b * NVM_BANK_SIZE);
            build_orom_bank(s->flash + OROM_BANK_OFF + b * OROM_BANK_SIZE);
            build_netlist_bank(s->flash + NETLIST_BANK_OFF + b * NETLIST_BANK_SIZE);
        }
    }
    return s->flash;
}

/* The PFA TLV of type @module as a module: byte offset of its length word in the shadow RAM
 * and its size (length word and value); false if the PFA has no such TLV. */
static bool pfa_module(const FwNvm *s, unsigned module, uint32_t *start, uint32_t *size)
{
    unsigned end = PFA_WORD + ld16(s->sr + 2 * PFA_WORD) - 1;   /* the final word */

    for (unsigned at = PFA_WORD + 1; at + 1 < end; at += 2 + ld16(s->sr + 2 * (at + 1))) {
        if (ld16(s->sr + 2 * at) == module) {
            *start = 2 * (at + 1);
            *size = 2 * (1 + ld16(s->sr + 2 * (at + 1)));
            return true;
        }
    }
    return false;
}

/*
 * Reads @length bytes at a 24-bit byte offset of the shadow RAM, or of the flash with
 * FLASH_ONLY; with a module id, at an offset into that PFA TLV of the shadow RAM. Anything not
 * entirely inside is EINVAL: ice finds the flash size by bisection and takes exactly EINVAL as
 * "beyond the end".
 */
static uint16_t fw_nvm_read(IrdmaDev *d, AqCmd *c)
{
    FwNvm *s = d->nvm;
    uint32_t off = ld16(c->params + NVM_OFFSET_LOW) |
                   ((uint32_t)c->params[NVM_OFFSET_HIGH] << 16);
    uint8_t flags = c->params[NVM_CMD_FLAGS];
    unsigned module = ld16(c->params + NVM_MODULE_TYPEID);
    uint32_t len = ld16(c->params + NVM_LENGTH);
    bool flash = flags & NVM_FLAG_FLASH_ONLY;
    const char *area = flash ? "flash" : "shadow RAM";
    uint32_t size = flash ? FW_NVM_FLASH_SIZE : FW_NVM_SR_SIZE;
    uint32_t base = 0;

    c->resp_len = 0;
    if (module != NVM_MODULE_START_POINT) {
        if (flash || !pfa_module(s, module, &base, &size)) {
            emu_trace(&d->host, TR_ERR_NVM_READ_BAD_MODULE,
                      "%s module 0x%04x: EINVAL", area, module);
            return AQ_RC_EINVAL;
        }
        area = "PFA module";
    }
    if (len == 0 || len > c->buf_len) {
        emu_trace(&d->host, TR_ERR_NVM_READ_BAD_LENGTH,
                  "%s length %u, buffer %u: EINVAL", area, len,
                  c->buf_len);
        return AQ_RC_EINVAL;
    }
    if (off >= size || len > size - off) {
        /* Not a guest error: ice sizes the flash by reading past its end. */
        emu_trace(&d->host, TR_NVM_READ_OUT_OF_RANGE,
                  "%s 0x%06x+%u beyond 0x%x: EINVAL", area, off, len, size);
        return AQ_RC_EINVAL;
    }
    if (!flash && module == NVM_MODULE_START_POINT &&
        off / SR_SECTOR_SIZE != (off + len - 1) / SR_SECTOR_SIZE) {
        emu_trace(&d->host, TR_ERR_NVM_READ_CROSSES_SECTOR,
                  "shadow RAM 0x%04x+%u: EINVAL", off, len);
        return AQ_RC_EINVAL;
    }
    memcpy(c->buf, (flash ? flash_image(s) : s->sr) + base + off, len);
    c->resp_len = len;
    emu_trace(&d->host, TR_NVM_READ, "%s 0x%04x 0x%06x+%u%s", area, module, off, len,
              (flags & NVM_FLAG_LAST_CMD) ? " last" : "");
    return AQ_RC_OK;
}

/* Verify reports the computed sum (FW_NVM_CHECKSUM_CORRECT when the checksum word agrees);
 * recalculate rewrites the checksum word first. */
static uint16_t fw_nvm_checksum(IrdmaDev *d, AqCmd *c)
{
    FwNvm *s = d->nvm;
    uint8_t flags = c->params[CSUM_FLAGS];
    uint16_t sum;

    if (!(flags & (CSUM_FLAG_VERIFY | CSUM_FLAG_RECALC))) {
        emu_trace(&d->host, TR_ERR_NVM_CHECKSUM_BAD_FLAGS, "flags 0x%02x: EINVAL", flags);
        return AQ_RC_EINVAL;
    }
    if (flags & CSUM_FLAG_RECALC) {
        sr_update_checksum(s);
    }
    sum = sr_sum(s);
    st16(c->params + CSUM_CHECKSUM, sum);
    emu_trace(&d->host, TR_NVM_CHECKSUM, "flags 0x%02x: 0x%04x", flags, sum);
    return AQ_RC_OK;
}

static const AqOpcode nvm_ops[] = {
    { AQC_NVM_READ, "nvm_read", fw_nvm_read, AQ_BUF_OUT, 1 },
    { AQC_NVM_CHECKSUM, "nvm_checksum", fw_nvm_checksum, AQ_BUF_NONE, 0 },
};

const AqOpcodeTable fw_nvm_opcodes = { nvm_ops, G_N_ELEMENTS(nvm_ops) };

FwNvm *fw_nvm_new(IrdmaDev *d)
{
    FwNvm *s = g_new0(FwNvm, 1);

    s->d = d;
    build_sr(s);
    return s;
}

void fw_nvm_free(FwNvm *s)
{
    if (!s) {
        return;
    }
    g_free(s->flash);
    g_free(s);
}

/* The NVM is device state: a PF reset keeps it. */
void fw_nvm_pf_reset(FwNvm *s)
{
    (void)s;
}
