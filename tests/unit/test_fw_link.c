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
    suite_add_tcase(s, tc);
    return s;
}
