/* fw/link.c - PHY, MAC and link status, the port's link topology and port options
 * (see fw/link.h). */
#include "fw/link.h"
#include "core/inet.h"
#include "core/le.h"
#include "core/trace.h"

/* 0x0600 get_phy_caps params */
#define PHY_CAPS_PARAM0             2
#define PHY_CAPS_REPORT_MODE_M      0x000e
#define REPORT_TOPO_CAP_NO_MEDIA    0x0
#define REPORT_TOPO_CAP_MEDIA       0x2
#define REPORT_ACTIVE_CFG           0x4
#define REPORT_DFLT_CFG             0x8
/* ice_aqc_get_phy_caps_data */
#define PHY_CAPS_DATA_SIZE          560
#define PHY_CAPS_TYPE_LOW           0
#define PHY_CAPS_TYPE_HIGH          8
#define PHY_CAPS_CAPS               16
#define PHY_CAPS_LOW_POWER_AN       17
#define PHY_CAPS_EEE_CAP            18
#define PHY_CAPS_EEER               20
#define PHY_CAPS_FEC_OPTIONS        34
#define PHY_CAPS_MOD_ENFORCE        35
#define PHY_CAPS_EXT_COMPLIANCE     36
#define PHY_CAPS_MODULE_TYPE        37
#define PHY_CAP_TX_PAUSE            0x01
#define PHY_CAP_RX_PAUSE            0x02
#define PHY_CAP_EN_LINK             0x08
#define PHY_CAP_AN_MODE             0x10
#define PHY_CAP_EN_MOD_QUAL         0x20
#define PHY_CAP_EN_AUTO_FEC         0x80
#define FEC_25G_RS_528_REQ          0x04
#define FEC_25G_KR_REQ              0x08
#define FEC_25G_RS_CLAUSE91_EN      0x40
#define FEC_25G_KR_CLAUSE74_EN      0x80
#define MOD_TYPE_SFP_PLUS           0xa0
#define MOD_TYPE_QSFP_PLUS          0x80
#define MOD_TYPE_BYTE1_SR           0x10
/* ice_aqc_set_phy_cfg_data */
#define PHY_CFG_DATA_SIZE           24
#define PHY_CFG_TYPE_LOW            0
#define PHY_CFG_TYPE_HIGH           8
#define PHY_CFG_CAPS                16
#define PHY_CFG_LOW_POWER_AN        17
#define PHY_CFG_EEE_CAP             18
#define PHY_CFG_EEER                20
#define PHY_CFG_FEC_OPT             22
#define PHY_CFG_MOD_ENFORCE         23
#define PHY_CFG_CAPS_VALID_M        0xef

/* 0x0603 set_mac_cfg params */
#define MAC_CFG_MAX_FRAME           0
#define MAC_MIN_FRAME               1518
#define MAC_MAX_FRAME               9728

/* 0x0605 restart_an params */
#define RESTART_AN_FLAGS            2
#define RESTART_AN_LINK_RESTART     0x02
#define RESTART_AN_LINK_ENABLE      0x04

/* 0x0607 get_link_status params and ice_aqc_get_link_status_data */
#define LINK_STATUS_CMD_FLAGS       2
#define LSE_M                       0x3
#define LSE_DIS                     0x2
#define LSE_ENA                     0x3
#define LSE_IS_ENABLED              0x1
#define LINK_DATA_SIZE              32
#define LINK_DATA_LINK_INFO         2
#define LINK_DATA_AN_INFO           3
#define LINK_DATA_MAX_FRAME         6
#define LINK_DATA_CFG               8
#define LINK_DATA_SPEED             10
#define LINK_DATA_TYPE_LOW          16
#define LINK_DATA_TYPE_HIGH         24
#define LINK_INFO_UP                0x01
#define LINK_INFO_MEDIA_AVAILABLE   0x40
#define LINK_INFO_SIGNAL_DETECT     0x80
#define AN_INFO_COMPLETED           0x01
#define AN_INFO_FEC_EN              0x08
#define AN_INFO_PAUSE_TX            0x20
#define AN_INFO_PAUSE_RX            0x40
#define AN_INFO_QUALIFIED_MODULE    0x80
#define LINK_CFG_25G_RS_528_FEC     0x02

/* 0x06E0 get_link_topo params (struct ice_aqc_get_link_topo) */
#define TOPO_LPORT_NUM              0
#define TOPO_LPORT_VALID            1
#define TOPO_LPORT_VALID_BIT        0x01
#define TOPO_NODE_TYPE_CTX          2
#define TOPO_NODE_TYPE_M            0x0f
#define TOPO_NODE_CTX_M             0xf0
#define TOPO_NODE_INDEX             3
#define TOPO_HANDLE                 4       /* le16, response */
#define TOPO_NODE_PART_NUM          6       /* response */
#define TOPO_NODE_TYPE_CAGE         6
#define TOPO_CTX_GLOBAL             0
#define TOPO_CTX_PORT               2
/* The cage's part number as ice_get_port_topology reads it. */
#define CAGE_SFP28                  0x12
#define CAGE_QSFP28                 0x14
#define CAGE_HANDLE                 0x0001

/* 0x06EA get_port_options params (struct ice_aqc_get_port_options) and elements */
#define PORT_OPT_LPORT_NUM          0
#define PORT_OPT_LPORT_VALID        1
#define PORT_OPT_COUNT              2
#define PORT_OPT_INNERMOST_PHY      3
#define PORT_OPT_OPTIONS            4
#define PORT_OPT_VALID              0x80
#define PORT_OPT_PENDING            5
#define PORT_OPT_ELEM_SIZE          8
#define PORT_OPT_ELEM_PMD           0
#define PORT_OPT_ELEM_MAX_SPEED     1
#define PORT_OPT_ACTIVE_IDX         0       /* bits 3:0 of PORT_OPT_OPTIONS */

/* 0x0620 set_mac_lb params (struct ice_aqc_set_mac_lb) */
#define MAC_LB_MODE                 0
#define MAC_LB_EN                   0x01
#define MAC_LB_OSC_CLK              0x02

/* 0x06EE sff_eeprom params (struct ice_aqc_sff_eeprom) */
#define SFF_LPORT_NUM               0
#define SFF_LPORT_VALID             1
#define SFF_LPORT_VALID_BIT         0x01
#define SFF_I2C_BUS_ADDR            2       /* le16 */
#define SFF_I2CBUS_7BIT_M           0x007f
#define SFF_I2CBUS_10BIT            0x0400
#define SFF_SET_PAGE_M              0x1800
#define SFF_IS_WRITE                0x8000
#define SFF_I2C_MEM_ADDR            4       /* le16 */
#define SFF_EEPROM_PAGE             6       /* le16: bank 7:0, page 15:8 */
#define SFF_EEPROM_PAGE_S           8
/* The module's two-wire addresses (7-bit: 0xA0 and 0xA2 as 8-bit) and memory layout. */
#define SFF_DEV_A0                  0x50
#define SFF_DEV_A2                  0x51
#define SFF_MEM_SIZE                256
#define SFF_MAX_READ                16      /* bytes one command reads */

/* 0x0613 set_event_mask params: a set bit masks (disables) that event. */
#define EVENT_MASK                  8
#define LINK_EVENT_UPDOWN           0x0002

typedef struct PortMode {
    unsigned mbps;
    uint16_t link_speed;          /* ICE_AQ_LINK_SPEED_* */
    uint64_t phy_type_low;        /* ICE_PHY_TYPE_LOW_*: SR optics for the speed */
    uint8_t fec_options;
    uint8_t module_type[3];
    uint8_t cage;                 /* the cage's node part number (0x06E0) */
    uint8_t max_speed;            /* ICE_AQC_PORT_OPT_MAX_LANE_* of the port option (0x06EA) */
    bool qsfp;                    /* the module in the cage: QSFP28 (SFF-8636), else SFP (SFF-8472) */
    uint8_t compliance;           /* its SFF-8024 extended compliance code */
    uint8_t bit_rate;             /* its nominal bit rate per lane, 250 Mb/s units */
} PortMode;

/* SFF-8024 extended compliance code of 25GBASE-SR / 100GBASE-SR4 optics: the 25G SFP28 and the
 * QSFP28 of the 50G and 100G ports (four 25G lanes). A 10G SFP+ SR reports it in byte 3. */
#define SFF8024_25GBASE_SR          0x02

static const PortMode port_modes[] = {
    { 10000, 1u << 5, 1ull << 14, 0, { MOD_TYPE_SFP_PLUS, MOD_TYPE_BYTE1_SR, MOD_TYPE_SFP_PLUS },
      CAGE_SFP28, 4, false, 0, 41 },
    { 25000, 1u << 7, 1ull << 23,
      FEC_25G_RS_528_REQ | FEC_25G_KR_REQ | FEC_25G_RS_CLAUSE91_EN | FEC_25G_KR_CLAUSE74_EN,
      { MOD_TYPE_SFP_PLUS, MOD_TYPE_BYTE1_SR, MOD_TYPE_SFP_PLUS }, CAGE_SFP28, 5, false,
      SFF8024_25GBASE_SR, 103 },
    { 50000, 1u << 9, 1ull << 37, FEC_25G_RS_528_REQ | FEC_25G_RS_CLAUSE91_EN,
      { MOD_TYPE_QSFP_PLUS, 0, MOD_TYPE_QSFP_PLUS }, CAGE_QSFP28, 6, true, SFF8024_25GBASE_SR,
      103 },
    { 100000, 1u << 10, 1ull << 52, FEC_25G_RS_528_REQ | FEC_25G_RS_CLAUSE91_EN,
      { MOD_TYPE_QSFP_PLUS, 0, MOD_TYPE_QSFP_PLUS }, CAGE_QSFP28, 7, true, SFF8024_25GBASE_SR,
      103 },
};

typedef struct PhyCfg {
    uint64_t phy_type_low, phy_type_high;
    uint8_t caps, low_power_an, fec_opt, mod_enforce;
    uint16_t eee_cap, eeer;
} PhyCfg;

struct FwLink {
    IrdmaDev *d;
    const PortMode *mode;
    PhyCfg active;                /* what set_phy_cfg last configured */
    PhyCfg dflt;                  /* the NVM default configuration */
    uint16_t max_frame;
    uint16_t event_mask;
    bool lse;                     /* link status events enabled (0x0607 LSE) */
    bool carrier;                 /* the wire */
    bool was_up;                  /* last state reported */
    bool mac_lb;                  /* MAC loopback (0x0620): Tx frames return to Rx */
};

static const PortMode *find_mode(unsigned mbps)
{
    for (size_t i = 0; i < G_N_ELEMENTS(port_modes); i++) {
        if (port_modes[i].mbps == mbps) {
            return &port_modes[i];
        }
    }
    return NULL;
}

bool fw_link_speed_supported(unsigned mbps)
{
    return find_mode(mbps) != NULL;
}

bool fw_link_is_up(const FwLink *s)
{
    return s->carrier && (s->active.caps & PHY_CAP_EN_LINK) &&
           (s->active.phy_type_low & s->mode->phy_type_low);
}

static void fill_link_data(FwLink *s, uint8_t *buf)
{
    bool up = fw_link_is_up(s);

    memset(buf, 0, LINK_DATA_SIZE);
    buf[LINK_DATA_LINK_INFO] = LINK_INFO_MEDIA_AVAILABLE |
                               (up ? LINK_INFO_UP | LINK_INFO_SIGNAL_DETECT : 0);
    buf[LINK_DATA_AN_INFO] = AN_INFO_QUALIFIED_MODULE |
                             (up ? AN_INFO_COMPLETED : 0) |
                             (up && s->mode->fec_options ? AN_INFO_FEC_EN : 0) |
                             (up && (s->active.caps & PHY_CAP_TX_PAUSE) ? AN_INFO_PAUSE_TX : 0) |
                             (up && (s->active.caps & PHY_CAP_RX_PAUSE) ? AN_INFO_PAUSE_RX : 0);
    st16(buf + LINK_DATA_MAX_FRAME, s->max_frame);
    buf[LINK_DATA_CFG] = s->mode->fec_options ? LINK_CFG_25G_RS_528_FEC : 0;
    st16(buf + LINK_DATA_SPEED, s->mode->link_speed);
    st64(buf + LINK_DATA_TYPE_LOW, s->mode->phy_type_low);
    st64(buf + LINK_DATA_TYPE_HIGH, 0);
}

/* Tell the driver when the state it last saw changed. */
static void report_link_change(FwLink *s)
{
    IrdmaDev *d = s->d;
    bool up = fw_link_is_up(s);
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t data[LINK_DATA_SIZE];

    if (up == s->was_up) {
        return;
    }
    s->was_up = up;
    emu_trace(&d->host, TR_FW_LINK_CHANGE, "link %s (carrier %d, phy enabled %d)",
              up ? "up" : "down", s->carrier, !!(s->active.caps & PHY_CAP_EN_LINK));
    if (!s->lse || (s->event_mask & LINK_EVENT_UPDOWN)) {
        emu_trace(&d->host, TR_FW_LINK_EVENT_SUPPRESSED, "lse=%d mask=0x%04x", s->lse,
                  s->event_mask);
        return;
    }
    fill_link_data(s, data);
    st16(params + LINK_STATUS_CMD_FLAGS, LSE_IS_ENABLED);
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, params, data, sizeof(data));
}

void fw_link_set_carrier(FwLink *s, bool up)
{
    s->carrier = up;
    report_link_change(s);
}

static void put_phy_cfg(const PhyCfg *cfg, const PortMode *mode, uint8_t *buf)
{
    st64(buf + PHY_CAPS_TYPE_LOW, cfg->phy_type_low);
    st64(buf + PHY_CAPS_TYPE_HIGH, cfg->phy_type_high);
    buf[PHY_CAPS_CAPS] = cfg->caps;
    buf[PHY_CAPS_LOW_POWER_AN] = cfg->low_power_an;
    st16(buf + PHY_CAPS_EEE_CAP, cfg->eee_cap);
    st16(buf + PHY_CAPS_EEER, cfg->eeer);
    buf[PHY_CAPS_FEC_OPTIONS] = cfg->fec_opt;
    buf[PHY_CAPS_MOD_ENFORCE] = cfg->mod_enforce;
    memcpy(buf + PHY_CAPS_MODULE_TYPE, mode->module_type, sizeof(mode->module_type));
}

static uint16_t fw_get_phy_caps(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    unsigned mode = ld16(c->params + PHY_CAPS_PARAM0) & PHY_CAPS_REPORT_MODE_M;
    PhyCfg caps;

    if (c->buf_len < PHY_CAPS_DATA_SIZE) {
        return AQ_RC_EINVAL;
    }
    switch (mode) {
    case REPORT_TOPO_CAP_NO_MEDIA:
    case REPORT_TOPO_CAP_MEDIA:
        /* What the port and its module can do. */
        caps = (PhyCfg) {
            .phy_type_low = s->mode->phy_type_low,
            .caps = PHY_CAP_TX_PAUSE | PHY_CAP_RX_PAUSE | PHY_CAP_EN_LINK | PHY_CAP_AN_MODE |
                    PHY_CAP_EN_MOD_QUAL | (s->mode->fec_options ? PHY_CAP_EN_AUTO_FEC : 0),
            .fec_opt = s->mode->fec_options,
        };
        break;
    case REPORT_ACTIVE_CFG:
        caps = s->active;
        break;
    case REPORT_DFLT_CFG:
        caps = s->dflt;
        break;
    default:
        emu_trace(&d->host, TR_ERR_FW_PHY_CAPS_BAD_MODE, "report mode 0x%x", mode);
        return AQ_RC_EINVAL;
    }
    put_phy_cfg(&caps, s->mode, c->buf);
    c->resp_len = PHY_CAPS_DATA_SIZE;
    return AQ_RC_OK;
}

static uint16_t fw_set_phy_cfg(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    const uint8_t *b = c->buf;
    PhyCfg cfg = {
        .phy_type_low = ld64(b + PHY_CFG_TYPE_LOW),
        .phy_type_high = ld64(b + PHY_CFG_TYPE_HIGH),
        .caps = b[PHY_CFG_CAPS] & PHY_CFG_CAPS_VALID_M,
        .low_power_an = b[PHY_CFG_LOW_POWER_AN],
        .eee_cap = ld16(b + PHY_CFG_EEE_CAP),
        .eeer = ld16(b + PHY_CFG_EEER),
        .fec_opt = b[PHY_CFG_FEC_OPT],
        .mod_enforce = b[PHY_CFG_MOD_ENFORCE],
    };

    /* A configuration naming no PHY type the port supports cannot bring up a link. */
    if ((cfg.caps & PHY_CAP_EN_LINK) && !(cfg.phy_type_low & s->mode->phy_type_low) &&
        !cfg.phy_type_high) {
        emu_trace(&d->host, TR_ERR_FW_PHY_CFG_REJECTED, "phy types 0x%" G_GINT64_MODIFIER "x/0x%"
                  G_GINT64_MODIFIER "x not supported", cfg.phy_type_low, cfg.phy_type_high);
        return AQ_RC_EINVAL;
    }
    s->active = cfg;
    emu_trace(&d->host, TR_FW_PHY_CFG, "types 0x%" G_GINT64_MODIFIER "x caps 0x%02x fec 0x%02x",
              cfg.phy_type_low, cfg.caps, cfg.fec_opt);
    report_link_change(s);
    return AQ_RC_OK;
}

static uint16_t fw_set_mac_cfg(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    unsigned max_frame = ld16(c->params + MAC_CFG_MAX_FRAME);

    if (max_frame < MAC_MIN_FRAME || max_frame > MAC_MAX_FRAME) {
        emu_trace(&d->host, TR_ERR_FW_MAC_CFG_REJECTED, "max frame %u", max_frame);
        return AQ_RC_EINVAL;
    }
    s->max_frame = max_frame;
    return AQ_RC_OK;
}

static uint16_t fw_restart_an(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    uint8_t flags = c->params[RESTART_AN_FLAGS];

    if (flags & RESTART_AN_LINK_ENABLE) {
        s->active.caps |= PHY_CAP_EN_LINK;
    } else {
        s->active.caps &= ~PHY_CAP_EN_LINK;
    }
    /* A restart drops the link for a moment: the driver sees a down and an up event. */
    if ((flags & RESTART_AN_LINK_RESTART) && s->was_up && fw_link_is_up(s)) {
        s->carrier = false;
        report_link_change(s);
        s->carrier = true;
    }
    report_link_change(s);
    return AQ_RC_OK;
}

static uint16_t fw_get_link_status(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    unsigned lse = ld16(c->params + LINK_STATUS_CMD_FLAGS) & LSE_M;

    if (lse == LSE_ENA) {
        s->lse = true;
    } else if (lse == LSE_DIS) {
        s->lse = false;
    }
    st16(c->params + LINK_STATUS_CMD_FLAGS, s->lse ? LSE_IS_ENABLED : 0);
    /* Reading the status acknowledges it: events report changes from here. */
    s->was_up = fw_link_is_up(s);
    if (c->flags & AQ_FLAG_BUF) {
        if (c->buf_len < LINK_DATA_SIZE) {
            return AQ_RC_EINVAL;
        }
        fill_link_data(s, c->buf);
        c->resp_len = LINK_DATA_SIZE;
    }
    return AQ_RC_OK;
}

static uint16_t fw_set_event_mask(IrdmaDev *d, AqCmd *c)
{
    d->link->event_mask = ld16(c->params + EVENT_MASK);
    return AQ_RC_OK;
}

/* ---- 0x0620 set_mac_lb ---- */

/* MAC loopback, as ice's loopback self-test turns it on and off: every frame the port
 * transmits comes back to its receive side instead of leaving (port/wire.c). OSC_CLK (loop on
 * the oscillator clock) makes no difference to the model. */
static uint16_t fw_set_mac_lb(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    uint8_t mode = c->params[MAC_LB_MODE];

    s->mac_lb = mode & MAC_LB_EN;
    emu_trace(&d->host, TR_FW_MAC_LOOPBACK, "%s (mode 0x%02x)", s->mac_lb ? "on" : "off", mode);
    return AQ_RC_OK;
}

bool fw_link_mac_loopback(const FwLink *s)
{
    return s->mac_lb;
}

/* ---- 0x06E0 get_link_topo ---- */

/*
 * The board's netlist as firmware walks it: the port's cage and nothing else (no external
 * PHY, clock controller, mux or GNSS receiver). A node that does not exist is ENOENT, which ice
 * takes as "absent" (ice_is_media_cage_present, ice_find_netlist_node). Only the port's own
 * context and the global one are searched; the port is logical port 0.
 */
static uint16_t fw_get_link_topo(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    unsigned type = c->params[TOPO_NODE_TYPE_CTX] & TOPO_NODE_TYPE_M;
    unsigned ctx = emu_field_get(c->params[TOPO_NODE_TYPE_CTX], TOPO_NODE_CTX_M);
    unsigned index = c->params[TOPO_NODE_INDEX];

    if ((c->params[TOPO_LPORT_VALID] & TOPO_LPORT_VALID_BIT) && c->params[TOPO_LPORT_NUM] != 0) {
        emu_trace(&d->host, TR_ERR_FW_LINK_TOPO_BAD_PORT, "lport %u: EINVAL",
                  c->params[TOPO_LPORT_NUM]);
        return AQ_RC_EINVAL;
    }
    if (type != TOPO_NODE_TYPE_CAGE || index != 0 ||
        (ctx != TOPO_CTX_PORT && ctx != TOPO_CTX_GLOBAL)) {
        emu_trace(&d->host, TR_FW_LINK_TOPO_NO_NODE, "type %u ctx %u index %u: ENOENT", type,
                  ctx, index);
        return AQ_RC_ENOENT;
    }
    st16(c->params + TOPO_HANDLE, CAGE_HANDLE);
    c->params[TOPO_NODE_PART_NUM] = s->mode->cage;
    emu_trace(&d->host, TR_FW_LINK_TOPO, "cage 0x%02x handle %u", s->mode->cage, CAGE_HANDLE);
    return AQ_RC_OK;
}

/* ---- 0x06EA get_port_options ---- */

/* One option, active, none pending: the port at its configured speed. */
static uint16_t fw_get_port_options(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;

    if (c->params[PORT_OPT_LPORT_VALID] && c->params[PORT_OPT_LPORT_NUM] != 0) {
        emu_trace(&d->host, TR_ERR_FW_PORT_OPTIONS_BAD_PORT, "lport %u: EINVAL",
                  c->params[PORT_OPT_LPORT_NUM]);
        return AQ_RC_EINVAL;
    }
    memset(c->buf, 0, PORT_OPT_ELEM_SIZE);
    c->buf[PORT_OPT_ELEM_PMD] = 1;
    c->buf[PORT_OPT_ELEM_MAX_SPEED] = s->mode->max_speed;
    c->params[PORT_OPT_COUNT] = 1;
    c->params[PORT_OPT_INNERMOST_PHY] = 0;
    c->params[PORT_OPT_OPTIONS] = PORT_OPT_VALID | PORT_OPT_ACTIVE_IDX;
    c->params[PORT_OPT_PENDING] = 0;
    c->resp_len = PORT_OPT_ELEM_SIZE;
    emu_trace(&d->host, TR_FW_PORT_OPTIONS, "1 option, 1 port of %u Mb/s, active", s->mode->mbps);
    return AQ_RC_OK;
}

/* ---- 0x06EE sff_eeprom: the optical module in the port's cage ---- */

/*
 * A synthetic SR module of the port's speed, as ethtool -m decodes it: an SFP28 (SFP+ at 10G)
 * with digital diagnostics (SFF-8472: ID page at A0h, diagnostics at A2h), or a QSFP28 with
 * flat memory (SFF-8636: lower page and upper page 00h at A0h). The vendor fields name the
 * model, not a real part; the monitors read a healthy module at room temperature.
 */
#define SFF_ID_SFP                  0x03
#define SFF_ID_QSFP28               0x11
#define SFF_CONN_LC                 0x07
#define SFF_CONN_MPO                0x0c
#define SFF_ENC_64B66B              0x06
#define SFF_BR_SEE_EXT              0xff    /* nominal rate above 25.4 Gb/s: see byte 66 */
#define SFF_10GBASE_SR              0x10    /* SFP byte 3 */
#define SFF_QSFP_EXT_COMPLIANCE     0x80    /* QSFP byte 131: see byte 192 */
#define SFF_WAVELENGTH_NM           850
#define SFF_VENDOR_NAME             "irdma-sim"
#define SFF_VENDOR_PN_SFP           "SIM-SFP28-SR"
#define SFF_VENDOR_PN_QSFP          "SIM-QSFP28-SR4"
#define SFF_VENDOR_REV              "A"
#define SFF_VENDOR_SN               "SIM00000001"
#define SFF_DATE_CODE               "260101"
/* SFF-8472 A0h */
#define SFP_ID                      0
#define SFP_EXT_ID                  1
#define SFP_CONNECTOR               2
#define SFP_COMPLIANCE              3
#define SFP_ENCODING                11
#define SFP_BR_NOMINAL              12
#define SFP_LEN_OM4                 18      /* 10 m units */
#define SFP_LEN_OM3                 19
#define SFP_VENDOR_NAME             20
#define SFP_EXT_COMPLIANCE          36
#define SFP_VENDOR_OUI              37
#define SFP_VENDOR_PN               40
#define SFP_VENDOR_REV              56
#define SFP_WAVELENGTH              60
#define SFP_CC_BASE                 63      /* sum of 0..62 */
#define SFP_OPTIONS                 65
#define SFP_BR_MAX                  66      /* with SFP_BR_SEE_EXT: the nominal rate */
#define SFP_VENDOR_SN               68
#define SFP_DATE_CODE               84
#define SFP_DIAG_TYPE               92
#define SFP_ENH_OPTIONS             93
#define SFP_8472_COMPLIANCE         94
#define SFP_CC_EXT                  95      /* sum of 64..94 */
#define SFP_EXT_ID_2WIRE            0x04
#define SFP_OPT_LOS_TXFAULT_TXDIS   0x1a
#define SFP_DIAG_DDM_INTERNAL_AVG   0x68    /* DDM, internally calibrated, average Rx power */
#define SFP_ENH_ALARMS_SOFT_CTL     0xf0
#define SFP_8472_REV_12_3           0x08
/* SFF-8472 A2h: alarm and warning thresholds (high alarm, low alarm, high warn, low warn), the
 * real-time monitors, their checksum. */
#define DDM_THRESH_TEMP             0
#define DDM_THRESH_VCC              8
#define DDM_THRESH_BIAS             16
#define DDM_THRESH_TX_PWR           24
#define DDM_THRESH_RX_PWR           32
#define DDM_CC_DMI                  95      /* sum of 0..94 */
#define DDM_TEMP                    96      /* 1/256 degree C, signed */
#define DDM_VCC                     98      /* 100 uV */
#define DDM_BIAS                    100     /* 2 uA */
#define DDM_TX_PWR                  102     /* 0.1 uW */
#define DDM_RX_PWR                  104
/* SFF-8636 lower page and upper page 00h */
#define QSFP_ID                     0
#define QSFP_REV                    1
#define QSFP_STATUS                 2
#define QSFP_TEMP                   22
#define QSFP_VCC                    26
#define QSFP_RX_PWR                 34      /* four lanes each */
#define QSFP_BIAS                   42
#define QSFP_TX_PWR                 50
#define QSFP_UP_ID                  128
#define QSFP_UP_EXT_ID              129
#define QSFP_UP_CONNECTOR           130
#define QSFP_UP_COMPLIANCE          131
#define QSFP_UP_ENCODING            139
#define QSFP_UP_BR_NOMINAL          140     /* 100 Mb/s units */
#define QSFP_UP_LEN_OM3             143     /* 2 m units */
#define QSFP_UP_VENDOR_NAME         148
#define QSFP_UP_VENDOR_OUI          165
#define QSFP_UP_VENDOR_PN           168
#define QSFP_UP_VENDOR_REV          184
#define QSFP_UP_WAVELENGTH          186     /* 0.05 nm units */
#define QSFP_UP_CC_BASE             191     /* sum of 128..190 */
#define QSFP_UP_EXT_COMPLIANCE      192
#define QSFP_UP_VENDOR_SN           196
#define QSFP_UP_DATE_CODE           212
#define QSFP_UP_DIAG_TYPE           220
#define QSFP_UP_BR_EXT              222     /* 250 Mb/s units, with QSFP_BR_EXT */
#define QSFP_UP_CC_EXT              223     /* sum of 192..222 */
#define QSFP_REV_8636_2_7           0x08
#define QSFP_STATUS_FLAT_MEM        0x04
#define QSFP_BR_EXT                 0xff
#define QSFP_LANES                  4
#define QSFP_DIAG_RX_AVG_TX_PWR     0x0c    /* average Rx power, Tx power monitored */
/* The monitors: 35 C, 3.30 V, 6.5 mA bias, 0.60 mW out, 0.55 mW in; and the thresholds. */
#define MON_TEMP                    (35 * 256)
#define MON_VCC                     33000
#define MON_BIAS                    3250
#define MON_TX_PWR                  6000
#define MON_RX_PWR                  5500

static void put_text(uint8_t *at, const char *text, size_t width)
{
    memset(at, ' ', width);
    memcpy(at, text, MIN(strlen(text), width));
}

static uint8_t sum8(const uint8_t *b, unsigned from, unsigned to)
{
    unsigned sum = 0;

    for (unsigned i = from; i <= to; i++) {
        sum += b[i];
    }
    return sum & 0xff;
}

/* Four thresholds (high alarm, low alarm, high warning, low warning), big-endian. */
static void put_thresholds(uint8_t *at, uint16_t ha, uint16_t la, uint16_t hw, uint16_t lw)
{
    put_be16(at, ha);
    put_be16(at + 2, la);
    put_be16(at + 4, hw);
    put_be16(at + 6, lw);
}

static void sfp_a0(const PortMode *m, uint8_t *b)
{
    b[SFP_ID] = SFF_ID_SFP;
    b[SFP_EXT_ID] = SFP_EXT_ID_2WIRE;
    b[SFP_CONNECTOR] = SFF_CONN_LC;
    b[SFP_COMPLIANCE] = m->compliance ? 0 : SFF_10GBASE_SR;
    b[SFP_ENCODING] = SFF_ENC_64B66B;
    b[SFP_BR_NOMINAL] = m->compliance ? SFF_BR_SEE_EXT : m->bit_rate * 250 / 100;
    b[SFP_LEN_OM4] = 10;
    b[SFP_LEN_OM3] = 7;
    put_text(b + SFP_VENDOR_NAME, SFF_VENDOR_NAME, 16);
    b[SFP_EXT_COMPLIANCE] = m->compliance;
    put_text(b + SFP_VENDOR_PN, SFF_VENDOR_PN_SFP, 16);
    put_text(b + SFP_VENDOR_REV, SFF_VENDOR_REV, 4);
    put_be16(b + SFP_WAVELENGTH, SFF_WAVELENGTH_NM);
    b[SFP_CC_BASE] = sum8(b, 0, SFP_CC_BASE - 1);
    b[SFP_OPTIONS] = SFP_OPT_LOS_TXFAULT_TXDIS;
    b[SFP_BR_MAX] = m->compliance ? m->bit_rate : 0;
    put_text(b + SFP_VENDOR_SN, SFF_VENDOR_SN, 16);
    put_text(b + SFP_DATE_CODE, SFF_DATE_CODE, 8);
    b[SFP_DIAG_TYPE] = SFP_DIAG_DDM_INTERNAL_AVG;
    b[SFP_ENH_OPTIONS] = SFP_ENH_ALARMS_SOFT_CTL;
    b[SFP_8472_COMPLIANCE] = SFP_8472_REV_12_3;
    b[SFP_CC_EXT] = sum8(b, SFP_CC_BASE + 1, SFP_CC_EXT - 1);
}

static void sfp_a2(uint8_t *b)
{
    put_thresholds(b + DDM_THRESH_TEMP, 75 * 256, (uint16_t)(-5 * 256), 70 * 256, 0);
    put_thresholds(b + DDM_THRESH_VCC, 36300, 29700, 34650, 31350);
    put_thresholds(b + DDM_THRESH_BIAS, 6500, 1000, 6000, 1500);
    put_thresholds(b + DDM_THRESH_TX_PWR, 15849, 1000, 12589, 1259);
    put_thresholds(b + DDM_THRESH_RX_PWR, 15849, 100, 12589, 158);
    b[DDM_CC_DMI] = sum8(b, 0, DDM_CC_DMI - 1);
    put_be16(b + DDM_TEMP, MON_TEMP);
    put_be16(b + DDM_VCC, MON_VCC);
    put_be16(b + DDM_BIAS, MON_BIAS);
    put_be16(b + DDM_TX_PWR, MON_TX_PWR);
    put_be16(b + DDM_RX_PWR, MON_RX_PWR);
}

static void qsfp_page0(const PortMode *m, uint8_t *b)
{
    b[QSFP_ID] = SFF_ID_QSFP28;
    b[QSFP_REV] = QSFP_REV_8636_2_7;
    b[QSFP_STATUS] = QSFP_STATUS_FLAT_MEM;
    put_be16(b + QSFP_TEMP, MON_TEMP);
    put_be16(b + QSFP_VCC, MON_VCC);
    for (unsigned l = 0; l < QSFP_LANES; l++) {
        put_be16(b + QSFP_RX_PWR + 2 * l, MON_RX_PWR);
        put_be16(b + QSFP_BIAS + 2 * l, MON_BIAS);
        put_be16(b + QSFP_TX_PWR + 2 * l, MON_TX_PWR);
    }
    b[QSFP_UP_ID] = SFF_ID_QSFP28;
    b[QSFP_UP_CONNECTOR] = SFF_CONN_MPO;
    b[QSFP_UP_COMPLIANCE] = SFF_QSFP_EXT_COMPLIANCE;
    b[QSFP_UP_ENCODING] = SFF_ENC_64B66B;
    b[QSFP_UP_BR_NOMINAL] = QSFP_BR_EXT;
    b[QSFP_UP_LEN_OM3] = 35;
    put_text(b + QSFP_UP_VENDOR_NAME, SFF_VENDOR_NAME, 16);
    put_text(b + QSFP_UP_VENDOR_PN, SFF_VENDOR_PN_QSFP, 16);
    put_text(b + QSFP_UP_VENDOR_REV, SFF_VENDOR_REV, 2);
    put_be16(b + QSFP_UP_WAVELENGTH, SFF_WAVELENGTH_NM * 20);
    b[QSFP_UP_CC_BASE] = sum8(b, QSFP_UP_ID, QSFP_UP_CC_BASE - 1);
    b[QSFP_UP_EXT_COMPLIANCE] = m->compliance;
    put_text(b + QSFP_UP_VENDOR_SN, SFF_VENDOR_SN, 16);
    put_text(b + QSFP_UP_DATE_CODE, SFF_DATE_CODE, 8);
    b[QSFP_UP_DIAG_TYPE] = QSFP_DIAG_RX_AVG_TX_PWR;
    b[QSFP_UP_BR_EXT] = m->bit_rate;
    b[QSFP_UP_CC_EXT] = sum8(b, QSFP_UP_EXT_COMPLIANCE, QSFP_UP_CC_EXT - 1);
}

/* The 256 bytes at two-wire address @dev (7-bit), page @page; false if the module does not
 * answer there (an SFP has no pages, a flat-memory QSFP28 no upper pages past 00h and no
 * second address). */
static bool module_memory(const PortMode *m, unsigned dev, unsigned page, uint8_t *b)
{
    memset(b, 0, SFF_MEM_SIZE);
    if (m->qsfp) {
        if (dev != SFF_DEV_A0 || page != 0) {
            return false;
        }
        qsfp_page0(m, b);
        return true;
    }
    if (page != 0) {
        return false;
    }
    if (dev == SFF_DEV_A0) {
        sfp_a0(m, b);
        return true;
    }
    if (dev == SFF_DEV_A2) {
        sfp_a2(b);
        return true;
    }
    return false;
}

/* Reads of the module's memory: up to SFF_MAX_READ bytes from one address and page. Writes
 * (page select, soft controls) are not taken: EINVAL, as for a module refusing them. A read
 * the module does not answer (no such address or page) fails as the firmware's I2C NAK does:
 * EIO. */
static uint16_t fw_sff_eeprom(IrdmaDev *d, AqCmd *c)
{
    FwLink *s = d->link;
    unsigned bus = ld16(c->params + SFF_I2C_BUS_ADDR);
    unsigned dev = bus & SFF_I2CBUS_7BIT_M;
    unsigned off = ld16(c->params + SFF_I2C_MEM_ADDR);
    unsigned page = ld16(c->params + SFF_EEPROM_PAGE) >> SFF_EEPROM_PAGE_S;
    uint8_t mem[SFF_MEM_SIZE];

    if ((c->params[SFF_LPORT_VALID] & SFF_LPORT_VALID_BIT) && c->params[SFF_LPORT_NUM] != 0) {
        emu_trace(&d->host, TR_ERR_FW_SFF_BAD_PORT, "lport %u: EINVAL", c->params[SFF_LPORT_NUM]);
        return AQ_RC_EINVAL;
    }
    if ((bus & (SFF_IS_WRITE | SFF_I2CBUS_10BIT)) || c->buf_len > SFF_MAX_READ ||
        off >= SFF_MEM_SIZE || off + c->buf_len > SFF_MEM_SIZE) {
        emu_trace(&d->host, TR_ERR_FW_SFF_REJECTED, "bus 0x%04x offset %u len %u: EINVAL", bus, off,
                  c->buf_len);
        return AQ_RC_EINVAL;
    }
    if (!module_memory(s->mode, dev, page, mem)) {
        emu_trace(&d->host, TR_FW_SFF_NAK, "address 0x%02x page %u: EIO", dev << 1, page);
        return AQ_RC_EIO;
    }
    memcpy(c->buf, mem + off, c->buf_len);
    c->resp_len = c->buf_len;
    emu_trace(&d->host, TR_FW_SFF_READ, "address 0x%02x page %u offset %u len %u", dev << 1, page,
              off, c->buf_len);
    return AQ_RC_OK;
}

static const AqOpcode link_ops[] = {
    { AQC_GET_PHY_CAPS, "get_phy_caps", fw_get_phy_caps, AQ_BUF_OUT, PHY_CAPS_DATA_SIZE },
    { AQC_SET_PHY_CFG, "set_phy_cfg", fw_set_phy_cfg, AQ_BUF_IN, PHY_CFG_DATA_SIZE },
    { AQC_SET_MAC_CFG, "set_mac_cfg", fw_set_mac_cfg, AQ_BUF_NONE, 0 },
    { AQC_RESTART_AN, "restart_an", fw_restart_an, AQ_BUF_NONE, 0 },
    /* Without a buffer only the LSE setting changes. */
    { AQC_GET_LINK_STATUS, "get_link_status", fw_get_link_status, AQ_BUF_OUT_OPT, 0 },
    { AQC_SET_EVENT_MASK, "set_event_mask", fw_set_event_mask, AQ_BUF_NONE, 0 },
    { AQC_SET_MAC_LB, "set_mac_lb", fw_set_mac_lb, AQ_BUF_NONE, 0 },
    { AQC_GET_LINK_TOPO, "get_link_topo", fw_get_link_topo, AQ_BUF_NONE, 0 },
    { AQC_GET_PORT_OPTIONS, "get_port_options", fw_get_port_options, AQ_BUF_OUT,
      PORT_OPT_ELEM_SIZE },
    /* ice sets RD on reads too; the firmware writes the bytes read into the buffer. */
    { AQC_SFF_EEPROM, "sff_eeprom", fw_sff_eeprom, AQ_BUF_INOUT, 1 },
};

const AqOpcodeTable fw_link_opcodes = { link_ops, G_N_ELEMENTS(link_ops) };

FwLink *fw_link_new(IrdmaDev *d)
{
    FwLink *s = g_new0(FwLink, 1);

    s->d = d;
    s->mode = find_mode(d->cfg.link_speed_mbps);
    s->dflt = (PhyCfg) {
        .phy_type_low = s->mode->phy_type_low,
        .caps = PHY_CAP_TX_PAUSE | PHY_CAP_RX_PAUSE | PHY_CAP_EN_LINK |
                (s->mode->fec_options ? PHY_CAP_EN_AUTO_FEC : 0),
        .fec_opt = s->mode->fec_options,
    };
    s->active = s->dflt;
    s->max_frame = MAC_MAX_FRAME;
    s->carrier = true;
    return s;
}

void fw_link_free(FwLink *s)
{
    g_free(s);
}

void fw_link_pf_reset(FwLink *s)
{
    s->lse = false;
    s->event_mask = 0;
    s->mac_lb = false;
}
