/* fw/dcb.c - DCB, LLDP agent and port ETS (see fw/dcb.h). */
#include "fw/dcb.h"
#include "fw/sched.h"
#include "core/e810_regs.h"
#include "core/inet.h"
#include "core/le.h"
#include "core/trace.h"

#define PRTDCB_GENS                 0x00083020
#define PRTDCB_GENS_DCBX_STATUS_M   MASK32(2, 0)
#define PRTDCB_TUP2TC               0x001D26C0
#define DCBX_STATUS_DONE            2
#define DCBX_STATUS_DIS             7

/* 0x0302/0x0303 */
#define PFC_MODE                    0
#define PFC_MODE_VLAN               1
#define PFC_MODE_DSCP               2

/* 0x0A00 get_lldp_mib */
#define MIB_TYPE                    0
#define MIB_TYPE_M                  0x03
#define MIB_TYPE_LOCAL              0
#define MIB_TYPE_REMOTE             1
#define MIB_BRIDGE_M                0x0c
#define MIB_BRIDGE_NEAREST          0
#define MIB_LOCAL_LEN               2
#define MIB_REMOTE_LEN              4
#define LLDPDU_SIZE                 1500
#define LLDP_ETHERTYPE              0x88cc

/* 0x0A01, 0x0A05, 0x0A06, 0x0A09, 0x0A0A */
#define LLDP_CMD                    0
#define MIB_UPDATE_DIS              0x01
#define MIB_PENDING_ENABLE          0x02    /* ice 6.12 on: announce changes before applying */
#define AGENT_SHUTDOWN              0x01
#define AGENT_START                 0x01
#define DCBX_AGENT_START            0x01
#define FILTER_ACTION_DELETE        0x01
#define FILTER_VSI                  2

/* 0x0A08 set_local_mib */
#define SET_MIB_TYPE                0
#define SET_MIB_LENGTH              2

/* 0x040E query_port_ets: params and response (ice_aqc_port_ets_elem) */
#define ETS_PORT_TEID               0
#define ETS_ELEM_SIZE               64
#define ETS_TC_VALID                0
#define ETS_UP2TC                   4
#define ETS_TC_BW                   8
#define ETS_TC_NODE_PRIO            24
#define ETS_TC_NODE_TEID            32

/* LLDP TLVs (IEEE 802.1Qaz and Intel's DSCP extension) */
#define TLV_TYPE_END                0
#define TLV_TYPE_ORG                127
#define TLV_HDR_LEN                 2
#define TLV_OUI_LEN                 4      /* OUI + subtype */
#define OUI_IEEE_8021QAZ            0x0080c2
#define OUI_DSCP                    0xffffff
#define SUBTYPE_ETS_CFG             9
#define SUBTYPE_ETS_REC             10
#define SUBTYPE_PFC_CFG             11
#define SUBTYPE_DSCP_TCBW           0x43
#define ETS_TLV_LEN                 25
#define PFC_TLV_LEN                 6
#define ETS_WILLING                 0x80
#define ETS_MAXTC_M                 0x07
#define ETS_PRIO_TABLE              1
#define ETS_BW_TABLE                5
#define ETS_TSA_TABLE               13
#define TSA_ETS                     2
#define NUM_TC                      8
#define NUM_UP                      8

typedef struct DcbCfg {
    FwEtsCfg ets;
    bool willing;
    uint8_t maxtc;
    uint8_t pfc_cap, pfc_enable;
} DcbCfg;

struct FwDcb {
    IrdmaDev *d;
    bool agent_running;
    bool dcbx_agent;                /* 0x0A09 state */
    bool mib_events;                /* 0x0A01 */
    bool lldp_filter;               /* 0x0A0A: LLDP frames go to the PF VSI */
    uint8_t pfc_mode;
    DcbCfg cfg;
};

/* One TC, every priority on it, all bandwidth, willing: what an agent with no peer holds. */
static DcbCfg default_cfg(void)
{
    DcbCfg c = { .willing = true, .maxtc = NUM_TC };

    c.ets.tc_bitmap = 0x01;
    c.ets.tc_bw[0] = 100;
    for (unsigned i = 0; i < NUM_TC; i++) {
        c.ets.tsa[i] = TSA_ETS;
    }
    return c;
}

void fw_dcb_get_ets(FwDcb *s, FwEtsCfg *out)
{
    *out = s->cfg.ets;
}

/* Apply a configuration: scheduler TCs and the UP->TC register follow it. */
static void apply_cfg(FwDcb *s, const DcbCfg *cfg)
{
    IrdmaDev *d = s->d;

    s->cfg = *cfg;
    fw_sched_set_tcs(d->sched, cfg->ets.tc_bitmap);
    emu_trace(&d->host, TR_FW_DCB_CFG, "tcs 0x%02x up2tc %u%u%u%u%u%u%u%u bw %u/%u/%u/%u",
              cfg->ets.tc_bitmap, cfg->ets.up2tc[0], cfg->ets.up2tc[1], cfg->ets.up2tc[2],
              cfg->ets.up2tc[3], cfg->ets.up2tc[4], cfg->ets.up2tc[5], cfg->ets.up2tc[6],
              cfg->ets.up2tc[7], cfg->ets.tc_bw[0], cfg->ets.tc_bw[1], cfg->ets.tc_bw[2],
              cfg->ets.tc_bw[3]);
}

/* ---- registers ---- */

static uint32_t gens_read(void *blk, const EmuReg *r, unsigned idx)
{
    FwDcb *s = blk;

    (void)r;
    (void)idx;
    return s->agent_running ? DCBX_STATUS_DONE : DCBX_STATUS_DIS;
}

static uint32_t tup2tc_read(void *blk, const EmuReg *r, unsigned idx)
{
    FwDcb *s = blk;
    uint32_t v = 0;

    (void)r;
    (void)idx;
    for (unsigned up = 0; up < NUM_UP; up++) {
        v |= (uint32_t)(s->cfg.ets.up2tc[up] & 7) << (3 * up);
    }
    return v;
}

static const EmuReg dcb_regs[] = {
    { .name = "PRTDCB_GENS", .base = PRTDCB_GENS, .read = gens_read },
    { .name = "PRTDCB_TUP2TC", .base = PRTDCB_TUP2TC, .read = tup2tc_read },
};

/* ---- TLV encoding and parsing ---- */

static unsigned put_org_tlv(uint8_t *p, uint32_t oui, uint8_t subtype, unsigned len)
{
    uint16_t typelen = (TLV_TYPE_ORG << 9) | len;

    p[0] = typelen >> 8;
    p[1] = typelen;
    p[2] = oui >> 16;
    p[3] = oui >> 8;
    p[4] = oui;
    p[5] = subtype;
    return TLV_HDR_LEN + TLV_OUI_LEN;
}

static void put_ets_body(uint8_t *p, const DcbCfg *c)
{
    p[0] = (c->willing ? ETS_WILLING : 0) | (c->maxtc & ETS_MAXTC_M);
    for (unsigned i = 0; i < NUM_UP / 2; i++) {
        p[ETS_PRIO_TABLE + i] = (c->ets.up2tc[2 * i] << 4) | (c->ets.up2tc[2 * i + 1] & 0xf);
    }
    memcpy(p + ETS_BW_TABLE, c->ets.tc_bw, NUM_TC);
    memcpy(p + ETS_TSA_TABLE, c->ets.tsa, NUM_TC);
}

/* The local MIB as an LLDPDU: Ethernet header, ETS config/recommendation, PFC, End. */
static unsigned build_lldpdu(const DcbCfg *c, const uint8_t *mac, uint8_t *buf)
{
    static const uint8_t nearest_bridge[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };
    unsigned off = 0;

    memcpy(buf, nearest_bridge, 6);
    memcpy(buf + 6, mac, 6);
    buf[12] = LLDP_ETHERTYPE >> 8;
    buf[13] = LLDP_ETHERTYPE & 0xff;
    off = ETH_HLEN;
    off += put_org_tlv(buf + off, OUI_IEEE_8021QAZ, SUBTYPE_ETS_CFG, ETS_TLV_LEN);
    put_ets_body(buf + off, c);
    off += ETS_TLV_LEN - TLV_OUI_LEN;
    off += put_org_tlv(buf + off, OUI_IEEE_8021QAZ, SUBTYPE_ETS_REC, ETS_TLV_LEN);
    put_ets_body(buf + off, c);
    off += ETS_TLV_LEN - TLV_OUI_LEN;
    off += put_org_tlv(buf + off, OUI_IEEE_8021QAZ, SUBTYPE_PFC_CFG, PFC_TLV_LEN);
    buf[off++] = (c->willing ? ETS_WILLING : 0) | (c->pfc_cap & 0xf);
    buf[off++] = c->pfc_enable;
    buf[off++] = TLV_TYPE_END;
    buf[off++] = 0;
    return off;
}

static void parse_ets(DcbCfg *c, const uint8_t *p, bool dscp)
{
    unsigned num_tc = (p[0] & ETS_MAXTC_M) ? (p[0] & ETS_MAXTC_M) : NUM_TC;   /* 0 means 8 */

    c->willing = p[0] & ETS_WILLING;
    c->maxtc = p[0] & ETS_MAXTC_M;
    memcpy(c->ets.tc_bw, p + ETS_BW_TABLE, NUM_TC);
    memcpy(c->ets.tsa, p + ETS_TSA_TABLE, NUM_TC);
    c->ets.tc_bitmap = 0x01;
    for (unsigned up = 0; up < NUM_UP; up++) {
        uint8_t b = p[ETS_PRIO_TABLE + up / 2];

        /* DSCP mode carries no priority table: ice maps priority i to TC i for each of the
         * port's TCs, and all of them are enabled (ice_dcbnl_setapp). */
        c->ets.up2tc[up] = dscp ? (up < num_tc ? up : 0) : ((up & 1) ? b & 0xf : b >> 4) & 7;
        c->ets.tc_bitmap |= 1u << c->ets.up2tc[up];
    }
}

/* Parses the TLVs of a set_local_mib; false if they are malformed. */
static bool parse_tlvs(FwDcb *s, const uint8_t *buf, unsigned len, DcbCfg *out)
{
    unsigned off = 0;
    bool have_ets = false;

    *out = s->cfg;
    while (off + TLV_HDR_LEN <= len) {
        unsigned typelen = (buf[off] << 8) | buf[off + 1];
        unsigned type = typelen >> 9, tlen = typelen & 0x1ff;
        const uint8_t *v = buf + off + TLV_HDR_LEN;
        uint32_t oui;

        if (type == TLV_TYPE_END) {
            break;
        }
        if (off + TLV_HDR_LEN + tlen > len) {
            return false;
        }
        off += TLV_HDR_LEN + tlen;
        if (type != TLV_TYPE_ORG || tlen < TLV_OUI_LEN) {
            continue;
        }
        oui = (v[0] << 16) | (v[1] << 8) | v[2];
        if (oui == OUI_IEEE_8021QAZ && v[3] == SUBTYPE_ETS_CFG) {
            if (tlen != ETS_TLV_LEN) {
                return false;
            }
            parse_ets(out, v + TLV_OUI_LEN, false);
            have_ets = true;
        } else if (oui == OUI_DSCP && v[3] == SUBTYPE_DSCP_TCBW && !have_ets) {
            if (tlen != ETS_TLV_LEN) {
                return false;
            }
            parse_ets(out, v + TLV_OUI_LEN, true);
        } else if (oui == OUI_IEEE_8021QAZ && v[3] == SUBTYPE_PFC_CFG) {
            if (tlen != PFC_TLV_LEN) {
                return false;
            }
            out->pfc_cap = v[TLV_OUI_LEN] & 0xf;
            out->pfc_enable = v[TLV_OUI_LEN + 1];
        }
    }
    return true;
}

/* ---- opcodes ---- */

static uint16_t fw_query_pfc_mode(IrdmaDev *d, AqCmd *c)
{
    c->params[PFC_MODE] = d->dcb->pfc_mode;
    return AQ_RC_OK;
}

static uint16_t fw_set_pfc_mode(IrdmaDev *d, AqCmd *c)
{
    uint8_t mode = c->params[PFC_MODE];

    if (mode != PFC_MODE_VLAN && mode != PFC_MODE_DSCP) {
        return AQ_RC_EINVAL;
    }
    d->dcb->pfc_mode = mode;
    return AQ_RC_OK;     /* params echo the mode, which the driver checks */
}

static uint16_t fw_get_lldp_mib(IrdmaDev *d, AqCmd *c)
{
    FwDcb *s = d->dcb;
    uint8_t type = c->params[MIB_TYPE];
    uint8_t pdu[LLDPDU_SIZE];
    unsigned len;

    if (!s->agent_running) {
        return AQ_RC_EPERM;
    }
    if ((type & MIB_BRIDGE_M) != MIB_BRIDGE_NEAREST) {
        return AQ_RC_ENOENT;
    }
    switch (type & MIB_TYPE_M) {
    case MIB_TYPE_LOCAL:
        len = build_lldpdu(&s->cfg, d->cfg.mac, pdu);
        if (c->buf_len < len) {
            return AQ_RC_ENOMEM;
        }
        memcpy(c->buf, pdu, len);
        st16(c->params + MIB_LOCAL_LEN, len);
        c->resp_len = len;
        return AQ_RC_OK;
    case MIB_TYPE_REMOTE:
        return AQ_RC_ENOENT;      /* no LLDP peer on the wire */
    default:
        return AQ_RC_EINVAL;
    }
}

/* With no peer the MIB never changes, so neither change nor pending-change events (which
 * ice 6.12 on would confirm with 0x0A0B) are ever posted; the setting is traced. */
static uint16_t fw_lldp_set_mib_change(IrdmaDev *d, AqCmd *c)
{
    d->dcb->mib_events = !(c->params[LLDP_CMD] & MIB_UPDATE_DIS);
    emu_trace(&d->host, TR_FW_LLDP_MIB_CHANGE_EVENTS, "%s%s",
              d->dcb->mib_events ? "on" : "off",
              d->dcb->mib_events && (c->params[LLDP_CMD] & MIB_PENDING_ENABLE) ? ", pending too" :
              "");
    return AQ_RC_OK;
}

static uint16_t fw_lldp_stop(IrdmaDev *d, AqCmd *c)
{
    FwDcb *s = d->dcb;

    if (!s->agent_running) {
        return AQ_RC_EPERM;
    }
    s->agent_running = false;
    s->mib_events = false;
    emu_trace(&d->host, TR_FW_LLDP_AGENT, "stopped (%s)",
              (c->params[LLDP_CMD] & AGENT_SHUTDOWN) ? "shutdown" : "stop");
    return AQ_RC_OK;
}

static uint16_t fw_lldp_start(IrdmaDev *d, AqCmd *c)
{
    FwDcb *s = d->dcb;

    if (!(c->params[LLDP_CMD] & AGENT_START)) {
        return AQ_RC_EINVAL;
    }
    if (s->agent_running) {
        return AQ_RC_EPERM;
    }
    s->agent_running = true;
    emu_trace(&d->host, TR_FW_LLDP_AGENT, "started");
    return AQ_RC_OK;
}

static uint16_t fw_get_cee_dcb_cfg(IrdmaDev *d, AqCmd *c)
{
    (void)d;
    (void)c;
    return AQ_RC_ENOENT;          /* no CEE peer: the driver falls back to IEEE */
}

static uint16_t fw_lldp_set_local_mib(IrdmaDev *d, AqCmd *c)
{
    FwDcb *s = d->dcb;
    unsigned len = ld16(c->params + SET_MIB_LENGTH);
    DcbCfg cfg;

    if (len > c->buf_len || !parse_tlvs(s, c->buf, len, &cfg)) {
        emu_trace(&d->host, TR_ERR_FW_DCB_BAD_MIB, "length %u datalen %u", len, c->buf_len);
        return AQ_RC_EINVAL;
    }
    apply_cfg(s, &cfg);
    return AQ_RC_OK;
}

static uint16_t fw_lldp_dcbx_agent(IrdmaDev *d, AqCmd *c)
{
    d->dcb->dcbx_agent = c->params[LLDP_CMD] & DCBX_AGENT_START;
    return AQ_RC_OK;              /* the command echoed back reports the new state */
}

static uint16_t fw_lldp_filter_ctrl(IrdmaDev *d, AqCmd *c)
{
    d->dcb->lldp_filter = !(c->params[LLDP_CMD] & FILTER_ACTION_DELETE);
    emu_trace(&d->host, TR_FW_LLDP_FILTER, "%s vsi %u", d->dcb->lldp_filter ? "add" : "delete",
              ld16(c->params + FILTER_VSI));
    return AQ_RC_OK;
}

static uint16_t fw_query_port_ets(IrdmaDev *d, AqCmd *c)
{
    FwDcb *s = d->dcb;
    uint32_t up2tc = tup2tc_read(s, NULL, 0);

    if (ld32(c->params + ETS_PORT_TEID) != fw_sched_root_teid(d->sched)) {
        emu_trace(&d->host, TR_ERR_FW_ETS_BAD_PORT, "teid 0x%x", ld32(c->params + ETS_PORT_TEID));
        return AQ_RC_EINVAL;
    }
    memset(c->buf, 0, ETS_ELEM_SIZE);
    c->buf[ETS_TC_VALID] = s->cfg.ets.tc_bitmap;
    st32(c->buf + ETS_UP2TC, up2tc);
    memcpy(c->buf + ETS_TC_BW, s->cfg.ets.tc_bw, NUM_TC);
    for (unsigned tc = 0; tc < NUM_TC; tc++) {
        st32(c->buf + ETS_TC_NODE_TEID + 4 * tc, fw_sched_tc_teid(d->sched, tc));
    }
    c->resp_len = ETS_ELEM_SIZE;
    return AQ_RC_OK;
}

static const AqOpcode dcb_ops[] = {
    { AQC_QUERY_PFC_MODE, "query_pfc_mode", fw_query_pfc_mode, AQ_BUF_NONE, 0 },
    { AQC_SET_PFC_MODE, "set_pfc_mode", fw_set_pfc_mode, AQ_BUF_NONE, 0 },
    { AQC_QUERY_PORT_ETS, "query_port_ets", fw_query_port_ets, AQ_BUF_OUT, ETS_ELEM_SIZE },
    { AQC_LLDP_GET_MIB, "lldp_get_mib", fw_get_lldp_mib, AQ_BUF_OUT, 1 },
    { AQC_LLDP_SET_MIB_CHANGE, "lldp_set_mib_change", fw_lldp_set_mib_change, AQ_BUF_NONE, 0 },
    { AQC_LLDP_STOP, "lldp_stop", fw_lldp_stop, AQ_BUF_NONE, 0 },
    { AQC_LLDP_START, "lldp_start", fw_lldp_start, AQ_BUF_NONE, 0 },
    { AQC_GET_CEE_DCB_CFG, "get_cee_dcb_cfg", fw_get_cee_dcb_cfg, AQ_BUF_OUT_OPT, 0 },
    { AQC_LLDP_SET_LOCAL_MIB, "lldp_set_local_mib", fw_lldp_set_local_mib, AQ_BUF_IN, 1 },
    { AQC_LLDP_STOP_START_AGENT, "lldp_dcbx_agent", fw_lldp_dcbx_agent, AQ_BUF_NONE, 0 },
    { AQC_LLDP_FILTER_CTRL, "lldp_filter_ctrl", fw_lldp_filter_ctrl, AQ_BUF_NONE, 0 },
};

const AqOpcodeTable fw_dcb_opcodes = { dcb_ops, G_N_ELEMENTS(dcb_ops) };

FwDcb *fw_dcb_new(IrdmaDev *d)
{
    FwDcb *s = g_new0(FwDcb, 1);

    s->d = d;
    s->agent_running = true;
    s->dcbx_agent = true;
    s->pfc_mode = PFC_MODE_VLAN;
    s->cfg = default_cfg();
    emu_regfile_add(d->regs, dcb_regs, G_N_ELEMENTS(dcb_regs), s);
    return s;
}

void fw_dcb_free(FwDcb *s)
{
    g_free(s);
}

void fw_dcb_pf_reset(FwDcb *s)
{
    s->mib_events = false;
    s->lldp_filter = false;
}
