/* lan_stats.c - per-VSI Ethernet statistics (see lan_stats.h). */
#include "lan/lan_stats.h"
#include "fw/fw.h"
#include "core/regs.h"
#include "core/trace.h"

/* GLV_* (ice_hw_autogen.h): split 40-bit counters per VSI (core/regs.h, EMU_SPLIT40_*), and
 * 32-bit ones at 4-byte stride. */
#define GLV_GORCL(v)            (0x003B0000 + (v) * 8)
#define GLV_UPRCL(v)            (0x003B2000 + (v) * 8)
#define GLV_MPRCL(v)            (0x003B4000 + (v) * 8)
#define GLV_BPRCL(v)            (0x003B6000 + (v) * 8)
#define GLV_GOTCL(v)            (0x00300000 + (v) * 8)
#define GLV_UPTCL(v)            (0x0030A000 + (v) * 8)
#define GLV_MPTCL(v)            (0x0030C000 + (v) * 8)
#define GLV_BPTCL(v)            (0x0030E000 + (v) * 8)
#define GLV_RDPC(v)             (0x00294C04 + (v) * 4)
#define GLV_TEPC(v)             (0x00312000 + (v) * 4)
#define STAT32_STRIDE           4

typedef enum StatId {
    ST_GORC, ST_UPRC, ST_MPRC, ST_BPRC,     /* received: octets, unicast, multicast, broadcast */
    ST_GOTC, ST_UPTC, ST_MPTC, ST_BPTC,     /* transmitted */
    ST_RDPC, ST_TEPC,                       /* receive discards, transmit errors */
    ST_NUM
} StatId;

struct LanStats {
    IrdmaDev *d;
    uint64_t c[ST_NUM][FW_NUM_VSI];
};

static uint32_t stat_read(void *blk, const EmuReg *r, unsigned idx);

/* In StatId order: the reader finds the counter by the register's place in the table. */
#define STAT40_REG(nm, off) EMU_REG_SPLIT40(nm, off, FW_NUM_VSI, stat_read)
#define STAT32_REG(nm, off) \
    { .name = nm, .base = off, .count = FW_NUM_VSI, .stride = STAT32_STRIDE, .read = stat_read }

static const EmuReg stats_regs[ST_NUM] = {
    [ST_GORC] = STAT40_REG("GLV_GORCL", GLV_GORCL(0)),
    [ST_UPRC] = STAT40_REG("GLV_UPRCL", GLV_UPRCL(0)),
    [ST_MPRC] = STAT40_REG("GLV_MPRCL", GLV_MPRCL(0)),
    [ST_BPRC] = STAT40_REG("GLV_BPRCL", GLV_BPRCL(0)),
    [ST_GOTC] = STAT40_REG("GLV_GOTCL", GLV_GOTCL(0)),
    [ST_UPTC] = STAT40_REG("GLV_UPTCL", GLV_UPTCL(0)),
    [ST_MPTC] = STAT40_REG("GLV_MPTCL", GLV_MPTCL(0)),
    [ST_BPTC] = STAT40_REG("GLV_BPTCL", GLV_BPTCL(0)),
    [ST_RDPC] = STAT32_REG("GLV_RDPC", GLV_RDPC(0)),
    [ST_TEPC] = STAT32_REG("GLV_TEPC", GLV_TEPC(0)),
};

/* 40-bit counters read as their L and H halves; 32-bit counters wrap at 32 bits. */
static uint32_t stat_read(void *blk, const EmuReg *r, unsigned idx)
{
    LanStats *s = blk;
    const uint64_t *c = s->c[r - stats_regs];

    if (emu_split40_is(r)) {
        return emu_split40_read(r, idx, c[emu_split40_counter(r, idx)]);
    }
    return (uint32_t)c[idx];
}

LanStats *lan_stats_new(IrdmaDev *d)
{
    LanStats *s = g_new0(LanStats, 1);

    s->d = d;
    emu_regfile_add(d->regs, stats_regs, G_N_ELEMENTS(stats_regs), s);
    return s;
}

void lan_stats_free(LanStats *s)
{
    g_free(s);
}

void lan_stats_reset(LanStats *s)
{
    memset(s->c, 0, sizeof(s->c));
}

/* Count a frame of @len bytes to @dst under the octet counter @octets and the unicast counter
 * @ucast (multicast and broadcast follow it). */
static void count(LanStats *s, unsigned vsi, const uint8_t *dst, size_t len, StatId octets,
                  StatId ucast)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

    if (vsi >= FW_NUM_VSI || len < sizeof(bcast)) {
        emu_trace(&s->d->host, TR_LAN_STATS_NOT_COUNTED, "vsi %u len %zu", vsi, len);
        return;
    }
    s->c[octets][vsi] += len;
    /* The multicast and broadcast counters follow the unicast one (StatId order). */
    if (!memcmp(dst, bcast, sizeof(bcast))) {
        s->c[ucast + 2][vsi]++;
    } else if (dst[0] & 1) {
        s->c[ucast + 1][vsi]++;
    } else {
        s->c[ucast][vsi]++;
    }
}

void lan_stats_rx(LanStats *s, unsigned vsi, const uint8_t *frame, size_t len)
{
    count(s, vsi, frame, len, ST_GORC, ST_UPRC);
}

void lan_stats_tx(LanStats *s, unsigned vsi, const uint8_t *frame, size_t len)
{
    count(s, vsi, frame, len, ST_GOTC, ST_UPTC);
}

void lan_stats_tx_error(LanStats *s, unsigned vsi)
{
    if (vsi < FW_NUM_VSI) {
        s->c[ST_TEPC][vsi]++;
    }
}

void lan_stats_rx_discard(LanStats *s, unsigned vsi)
{
    if (vsi < FW_NUM_VSI) {
        s->c[ST_RDPC][vsi]++;
    }
}
