/* test_fw_link.c - AQ handlers of fw/link.c: good commands, and malformed ones answered with the
 * firmware's error codes. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw/fw.h"
#include "emu/core/le.h"

#include "emu/fw/link.h"

#define PHY_25GBASE_SR (1ull << 23)

static uint16_t phy_caps(unsigned mode, uint8_t *buf)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params + 2, mode);
    return aqt_send(h, d, AQC_GET_PHY_CAPS, 0, params, buf, 560, NULL);
}

static uint16_t link_status(unsigned lse, uint8_t *buf, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params + 2, lse);
    return aqt_send(h, d, AQC_GET_LINK_STATUS, 0, params, buf, buf ? 32 : 0, r);
}

START_TEST(phy_caps_report_the_port_type_in_every_mode)
{
    uint8_t buf[560];
    unsigned modes[] = { 0x0, 0x2, 0x4, 0x8 };

    for (size_t i = 0; i < G_N_ELEMENTS(modes); i++) {
        memset(buf, 0, sizeof(buf));
        ck_assert_uint_eq(phy_caps(modes[i], buf), AQ_RC_OK);
        ck_assert_uint_eq(ld64(buf), PHY_25GBASE_SR);
        ck_assert(buf[16] & 0x08);                 /* EN_LINK */
        ck_assert_uint_eq(buf[37], 0xa0);          /* SFP module */
    }
}
END_TEST

START_TEST(phy_caps_bad_mode_or_short_buffer_is_einval)
{
    uint8_t buf[560];
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    ck_assert_uint_eq(phy_caps(0x6, buf), AQ_RC_EINVAL);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_PHY_CAPS, 0, params, buf, 100, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(set_phy_cfg_becomes_the_active_config)
{
    uint8_t cfg[24] = { 0 };
    uint8_t buf[560];

    st64(cfg, PHY_25GBASE_SR);
    cfg[16] = 0x08 | 0x20;                          /* EN_LINK | AUTO_LINK_UPDT */
    cfg[22] = 0x04;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PHY_CFG, AQ_FLAG_RD, NULL, cfg, 24, NULL), AQ_RC_OK);
    ck_assert_uint_eq(phy_caps(0x4, buf), AQ_RC_OK);
    ck_assert_uint_eq(buf[16], 0x28);
    ck_assert_uint_eq(buf[34], 0x04);
    /* The default configuration is not what the driver set. */
    ck_assert_uint_eq(phy_caps(0x8, buf), AQ_RC_OK);
    ck_assert_uint_ne(buf[16], 0x28);
}
END_TEST

START_TEST(set_phy_cfg_with_no_supported_type_is_einval)
{
    uint8_t cfg[24] = { 0 };

    st64(cfg, 1ull << 51);                          /* 100GBASE_CR4 on a 25G port */
    cfg[16] = 0x08;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PHY_CFG, AQ_FLAG_RD, NULL, cfg, 24, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(link_status_reports_25g_up_and_lse)
{
    uint8_t buf[32];
    AqtResp r;

    ck_assert_uint_eq(link_status(0x3, buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2) & 1, 1);
    ck_assert_uint_eq(buf[2] & 0x41, 0x41);        /* LINK_UP | MEDIA_AVAILABLE */
    ck_assert_uint_eq(ld16(buf + 10), 1u << 7);    /* 25 Gb/s */
    ck_assert_uint_eq(ld64(buf + 16), PHY_25GBASE_SR);
    ck_assert_uint_eq(ld16(buf + 6), 9728);
    ck_assert_uint_eq(link_status(0x2, NULL, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 2) & 1, 0);
}
END_TEST

START_TEST(carrier_loss_is_an_arq_event_when_enabled)
{
    uint8_t buf[32];
    AqtResp ev;

    ck_assert_uint_eq(link_status(0x3, buf, NULL), AQ_RC_OK);
    irdma_dev_set_carrier(d, false);
    ck_assert(aqt_next_event(h, d, &ev, buf, sizeof(buf)));
    ck_assert_uint_eq(ev.opcode, AQC_GET_LINK_STATUS);
    ck_assert_uint_eq(buf[2] & 0x01, 0);
    irdma_dev_set_carrier(d, true);
    ck_assert(aqt_next_event(h, d, &ev, buf, sizeof(buf)));
    ck_assert_uint_eq(buf[2] & 0x01, 1);
}
END_TEST

START_TEST(masked_or_disabled_link_events_are_not_sent)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    AqtResp ev;

    irdma_dev_set_carrier(d, false);                /* LSE still off */
    ck_assert(!aqt_next_event(h, d, &ev, NULL, 0));
    ck_assert_uint_eq(link_status(0x3, NULL, NULL), AQ_RC_OK);
    st16(params + 8, 0x0002);                       /* mask UPDOWN */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_EVENT_MASK, 0, params, NULL, 0, NULL), AQ_RC_OK);
    irdma_dev_set_carrier(d, true);
    ck_assert(!aqt_next_event(h, d, &ev, NULL, 0));
}
END_TEST

START_TEST(restart_an_without_enable_takes_the_link_down)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t buf[32];
    AqtResp ev;

    ck_assert_uint_eq(link_status(0x3, NULL, NULL), AQ_RC_OK);
    params[2] = 0x02;                               /* restart, link disabled */
    ck_assert_uint_eq(aqt_send(h, d, AQC_RESTART_AN, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert(aqt_next_event(h, d, &ev, buf, sizeof(buf)));
    ck_assert_uint_eq(buf[2] & 0x01, 0);
    params[2] = 0x06;                               /* restart, link enabled */
    ck_assert_uint_eq(aqt_send(h, d, AQC_RESTART_AN, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert(aqt_next_event(h, d, &ev, buf, sizeof(buf)));
    ck_assert_uint_eq(buf[2] & 0x01, 1);
}
END_TEST

START_TEST(set_mac_cfg_bounds_the_frame_size)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params, 9728);
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_MAC_CFG, 0, params, NULL, 0, NULL), AQ_RC_OK);
    st16(params, 9729);
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_MAC_CFG, 0, params, NULL, 0, NULL), AQ_RC_EINVAL);
    st16(params, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_MAC_CFG, 0, params, NULL, 0, NULL), AQ_RC_EINVAL);
}
END_TEST

/* What ice 6.12/7.3 send (ice_common.c: ice_aq_get_link_topo_handle, ice_find_netlist_node,
 * ice_is_pf_c827; ice_ethtool.c: ice_get_port_topology), with the driver's values. */
#define ICE_AQC_LINK_TOPO_NODE_TYPE_PHY         0
#define ICE_AQC_LINK_TOPO_NODE_TYPE_CAGE        6
#define ICE_AQC_LINK_TOPO_NODE_TYPE_CLK_CTRL    9
#define ICE_AQC_LINK_TOPO_NODE_TYPE_CLK_MUX     10
#define ICE_AQC_LINK_TOPO_NODE_TYPE_GPS         11
#define ICE_AQC_LINK_TOPO_NODE_CTX_GLOBAL       0
#define ICE_AQC_LINK_TOPO_NODE_CTX_PORT         2

static uint16_t link_topo(unsigned type, unsigned ctx, unsigned index, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[2] = (type & 0xf) | (ctx << 4);          /* node_type_ctx */
    params[3] = index;
    return aqt_send(h, d, AQC_GET_LINK_TOPO, 0, params, NULL, 0, r);
}

START_TEST(link_topo_has_the_cage_and_no_other_node)
{
    unsigned absent[][2] = {
        { ICE_AQC_LINK_TOPO_NODE_TYPE_PHY, ICE_AQC_LINK_TOPO_NODE_CTX_PORT },     /* C827/E822 */
        { ICE_AQC_LINK_TOPO_NODE_TYPE_CLK_CTRL, ICE_AQC_LINK_TOPO_NODE_CTX_GLOBAL },
        { ICE_AQC_LINK_TOPO_NODE_TYPE_CLK_MUX, ICE_AQC_LINK_TOPO_NODE_CTX_GLOBAL },
        { ICE_AQC_LINK_TOPO_NODE_TYPE_GPS, ICE_AQC_LINK_TOPO_NODE_CTX_GLOBAL },
    };
    AqtResp r;

    /* ice_is_media_cage_present: success = a cage; ice_get_port_topology: 0x12 = SFP28. */
    ck_assert_uint_eq(link_topo(ICE_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                                ICE_AQC_LINK_TOPO_NODE_CTX_PORT, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[6], 0x12);
    ck_assert_uint_ne(ld16(r.params + 4) & 0x3ff, 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_link_topo: cage 0x12"), 1);
    /* No second cage; ice_find_netlist_node stops at the first error. */
    ck_assert_uint_eq(link_topo(ICE_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                                ICE_AQC_LINK_TOPO_NODE_CTX_PORT, 1, &r), AQ_RC_ENOENT);
    ck_assert(r.flags & AQ_FLAG_ERR);
    for (size_t i = 0; i < G_N_ELEMENTS(absent); i++) {
        ck_assert_uint_eq(link_topo(absent[i][0], absent[i][1], 0, NULL), AQ_RC_ENOENT);
    }
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_link_topo_no_node"), 5);
}
END_TEST

START_TEST(link_topo_of_another_port_is_einval)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = 1;                                  /* lport_num */
    params[1] = 0x01;                               /* ICE_AQC_LINK_TOPO_PORT_NUM_VALID */
    params[2] = ICE_AQC_LINK_TOPO_NODE_TYPE_CAGE | (ICE_AQC_LINK_TOPO_NODE_CTX_PORT << 4);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_LINK_TOPO, 0, params, NULL, 0, NULL),
                      AQ_RC_EINVAL);
    params[0] = 0;
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_LINK_TOPO, 0, params, NULL, 0, NULL), AQ_RC_OK);
}
END_TEST

/* ice_aq_get_port_options as 7.3's ice_get_phy_lane_number sends it at every probe: room for
 * ICE_AQC_PORT_OPT_MAX (16) options of 8 bytes, lport 0 valid. */
static uint16_t port_options(unsigned lport, bool valid, uint8_t *buf, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = lport;
    params[1] = valid;
    return aqt_send(h, d, AQC_GET_PORT_OPTIONS, 0, params, buf, 16 * 8, r);
}

START_TEST(port_options_one_active_option_at_the_port_speed)
{
    uint8_t buf[16 * 8];
    AqtResp r;

    memset(buf, 0xee, sizeof(buf));
    ck_assert_uint_eq(port_options(0, true, buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[2] & 0xf, 1);        /* port_options_count */
    ck_assert_uint_eq(r.params[4], 0x80 | 0);       /* ICE_AQC_PORT_OPT_VALID, active 0 */
    ck_assert_uint_eq(r.params[5] & 0x80, 0);       /* nothing pending */
    ck_assert_uint_eq(r.datalen, 8);
    ck_assert_uint_eq(buf[0] & 0xf, 1);             /* one PMD */
    ck_assert_uint_eq(buf[1] & 0xf, 5);             /* ICE_AQC_PORT_OPT_MAX_LANE_25G */
    /* 7.3 takes a speed up to MAX_LANE_40G (9) as an occupied lane: lane 0 is PF 0's. */
    ck_assert_uint_le(buf[1] & 0xf, 9);
    ck_assert_uint_eq(port_options(0, false, buf, NULL), AQ_RC_OK);
    ck_assert_uint_eq(port_options(1, true, buf, NULL), AQ_RC_EINVAL);
}
END_TEST

/* The device made again with a 100G port, its admin queue set up. */
static void reopen_as_100g_port(void)
{
    IrdmaDevConfig cfg;
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };

    irdma_dev_free(d);
    irdma_dev_config_init(&cfg);
    memcpy(cfg.mac, mac, sizeof(mac));
    cfg.link_speed_mbps = 100000;
    d = irdma_dev_new(&fake_host_ops, h, &cfg, NULL);
    ck_assert_ptr_nonnull(d);
    irdma_dev_reset(d);
    aqt_init(h, d);
}

/* A 100G port: one QSFP28 cage, one option of 100G (ice_get_port_topology: 4 serdes lanes). */
START_TEST(port_options_and_cage_follow_the_port_speed)
{
    uint8_t buf[16 * 8];
    AqtResp r;

    reopen_as_100g_port();
    ck_assert_uint_eq(port_options(0, true, buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(buf[1] & 0xf, 7);             /* ICE_AQC_PORT_OPT_MAX_LANE_100G */
    ck_assert_uint_eq(link_topo(ICE_AQC_LINK_TOPO_NODE_TYPE_CAGE,
                                ICE_AQC_LINK_TOPO_NODE_CTX_PORT, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[6], 0x14);           /* QSFP28 */
}
END_TEST

/* ice_aq_sff_eeprom as ethtool -m drives it: 7-bit address (0xA0 >> 1), offset, page, RD set
 * on reads too. */
static uint16_t sff_read(unsigned addr8, unsigned off, unsigned page, uint8_t *buf, unsigned len)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params + 2, (addr8 >> 1) & 0x7f);
    st16(params + 4, off);
    st16(params + 6, page << 8);
    return aqt_send(h, d, AQC_SFF_EEPROM, AQ_FLAG_RD, params, buf, len, NULL);
}

static unsigned sum8(const uint8_t *b, unsigned from, unsigned to)
{
    unsigned sum = 0;

    for (unsigned i = from; i <= to; i++) {
        sum += b[i];
    }
    return sum & 0xff;
}

/* The 25G port's SFP28: SFF-8472 with diagnostics (what ice_get_module_info checks), 25GBASE-SR,
 * valid checksums, the diagnostics page at A2h; no page 1, no writes. */
START_TEST(sff_eeprom_is_an_sfp28_sr_with_diagnostics)
{
    uint8_t a0[256], a2[256];

    for (unsigned off = 0; off < 256; off += 8) {
        ck_assert_uint_eq(sff_read(0xa0, off, 0, a0 + off, 8), AQ_RC_OK);
        ck_assert_uint_eq(sff_read(0xa2, off, 0, a2 + off, 8), AQ_RC_OK);
    }
    ck_assert_uint_eq(a0[0], 0x03);                 /* SFP */
    ck_assert_uint_eq(a0[36], 0x02);                /* 25GBASE-SR */
    ck_assert_uint_eq(a0[92] & 0x44, 0x40);         /* DDM, no address change */
    ck_assert_uint_ne(a0[94], 0);                   /* SFF-8472 compliance */
    ck_assert_uint_eq(a0[63], sum8(a0, 0, 62));
    ck_assert_uint_eq(a0[95], sum8(a0, 64, 94));
    ck_assert_mem_eq(a0 + 20, "irdma-sim       ", 16);
    ck_assert_uint_eq(a2[95], sum8(a2, 0, 94));
    ck_assert_uint_eq(a2[96], 35);                  /* 35 C */
    ck_assert_uint_eq(sff_read(0xa0, 0, 1, a0, 1), AQ_RC_EIO);
    ck_assert_uint_eq(sff_read(0xa4, 0, 0, a0, 1), AQ_RC_EIO);
    ck_assert_uint_eq(sff_read(0xa0, 250, 0, a0, 8), AQ_RC_EINVAL);
    ck_assert_uint_eq(sff_read(0xa0, 0, 0, a0, 17), AQ_RC_EINVAL);
}
END_TEST

START_TEST(sff_eeprom_of_a_100g_port_is_a_flat_qsfp28)
{
    uint8_t mem[256];

    reopen_as_100g_port();
    for (unsigned off = 0; off < 256; off += 8) {
        ck_assert_uint_eq(sff_read(0xa0, off, 0, mem + off, 8), AQ_RC_OK);
    }
    ck_assert_uint_eq(mem[0], 0x11);                /* QSFP28 */
    ck_assert_uint_eq(mem[2] & 0x04, 0x04);         /* flat memory: ice reads no upper page */
    ck_assert_uint_eq(mem[128], 0x11);
    ck_assert_uint_eq(mem[192], 0x02);              /* 100GBASE-SR4 */
    ck_assert_uint_eq(mem[191], sum8(mem, 128, 190));
    ck_assert_uint_eq(mem[223], sum8(mem, 192, 222));
    ck_assert_uint_eq(sff_read(0xa0, 128, 3, mem, 8), AQ_RC_EIO);
}
END_TEST

Suite *fw_link_suite(void)
{
    Suite *s = suite_create("fw_link");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, phy_caps_report_the_port_type_in_every_mode);
    tcase_add_test(tc, phy_caps_bad_mode_or_short_buffer_is_einval);
    tcase_add_test(tc, set_phy_cfg_becomes_the_active_config);
    tcase_add_test(tc, set_phy_cfg_with_no_supported_type_is_einval);
    tcase_add_test(tc, link_status_reports_25g_up_and_lse);
    tcase_add_test(tc, carrier_loss_is_an_arq_event_when_enabled);
    tcase_add_test(tc, masked_or_disabled_link_events_are_not_sent);
    tcase_add_test(tc, restart_an_without_enable_takes_the_link_down);
    tcase_add_test(tc, set_mac_cfg_bounds_the_frame_size);
    tcase_add_test(tc, link_topo_has_the_cage_and_no_other_node);
    tcase_add_test(tc, link_topo_of_another_port_is_einval);
    tcase_add_test(tc, port_options_one_active_option_at_the_port_speed);
    tcase_add_test(tc, port_options_and_cage_follow_the_port_speed);
    tcase_add_test(tc, sff_eeprom_is_an_sfp28_sr_with_diagnostics);
    tcase_add_test(tc, sff_eeprom_of_a_100g_port_is_a_flat_qsfp28);
    suite_add_tcase(s, tc);
    return s;
}
