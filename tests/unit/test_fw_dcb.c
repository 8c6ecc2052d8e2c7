/* test_fw_dcb.c - AQ handlers of fw/dcb.c: good commands, and malformed ones answered with the
 * firmware's error codes. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw/fw.h"
#include "emu/core/le.h"
#include "emu/fw/sched.h"

#include "emu/core/e810_regs.h"
#include "emu/fw/dcb.h"

#define PRTDCB_GENS   0x00083020
#define PRTDCB_TUP2TC 0x001D26C0

/* An IEEE ETS-CFG TLV (as ice_add_ieee_ets_tlv builds it) + PFC + End, without Ethernet header. */
static unsigned build_ets_mib(uint8_t *b, const uint8_t up2tc[8], const uint8_t bw[8])
{
    unsigned off = 0;

    b[off++] = (127 << 1) | 0;
    b[off++] = 25;
    b[off++] = 0x00; b[off++] = 0x80; b[off++] = 0xc2; b[off++] = 9;
    b[off++] = 0x80 | 8;                          /* willing, maxtc 8 */
    for (unsigned i = 0; i < 4; i++) {
        b[off++] = (up2tc[2 * i] << 4) | up2tc[2 * i + 1];
    }
    for (unsigned i = 0; i < 8; i++) {
        b[off + i] = bw[i];
        b[off + 8 + i] = 2;                       /* ETS */
    }
    off += 16;
    b[off++] = 127 << 1;
    b[off++] = 6;
    b[off++] = 0x00; b[off++] = 0x80; b[off++] = 0xc2; b[off++] = 11;
    b[off++] = 8;
    b[off++] = 0x08;                              /* PFC on priority 3 */
    b[off++] = 0;
    b[off++] = 0;
    return off;
}

static uint16_t set_local_mib(uint8_t *mib, unsigned len, unsigned claimed)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params + 2, claimed);
    return aqt_send(h, d, AQC_LLDP_SET_LOCAL_MIB, AQ_FLAG_RD, params, mib, len, NULL);
}

START_TEST(agent_runs_by_default_and_local_mib_is_one_tc)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t buf[1500];
    AqtResp r;
    unsigned len;

    ck_assert_uint_eq(irdma_dev_mmio_read(d, PRTDCB_GENS) & 7, 2);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_CEE_DCB_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_GET_MIB, 0, params, buf, sizeof(buf), &r), AQ_RC_OK);
    len = ld16(r.params + 2);
    ck_assert_uint_eq(r.datalen, len);
    ck_assert_uint_eq(buf[12], 0x88);                         /* LLDP ethertype */
    ck_assert_uint_eq(buf[13], 0xcc);
    ck_assert_uint_eq(buf[14] >> 1, 127);                     /* first TLV: org specific */
    ck_assert_uint_eq(buf[19], 9);                            /* ETS-CFG */
    ck_assert_uint_eq(buf[20 + 5], 100);                      /* TC0 has all bandwidth */
    params[0] = 1;                                            /* remote MIB */
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_GET_MIB, 0, params, buf, sizeof(buf), NULL),
                      AQ_RC_ENOENT);
}
END_TEST

START_TEST(stopping_the_agent_switches_to_software_dcbx)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t buf[1500];

    params[0] = 0x03;                                         /* shutdown, persistent */
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_STOP, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PRTDCB_GENS) & 7, 7);
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_STOP, 0, params, NULL, 0, NULL), AQ_RC_EPERM);
    memset(params, 0, sizeof(params));
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_GET_MIB, 0, params, buf, sizeof(buf), NULL),
                      AQ_RC_EPERM);
    params[0] = 0x01;
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_START, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PRTDCB_GENS) & 7, 2);
}
END_TEST

START_TEST(set_local_mib_sets_up2tc_and_tcs)
{
    static const uint8_t up2tc[8] = { 0, 0, 0, 1, 1, 2, 2, 2 };
    static const uint8_t bw[8] = { 40, 30, 30 };
    uint8_t mib[64];
    unsigned len = build_ets_mib(mib, up2tc, bw);
    FwEtsCfg ets;
    uint32_t reg;

    ck_assert_uint_eq(set_local_mib(mib, len, len), AQ_RC_OK);
    fw_dcb_get_ets(d->dcb, &ets);
    ck_assert_uint_eq(ets.tc_bitmap, 0x07);
    ck_assert_uint_eq(ets.tc_bw[1], 30);
    reg = irdma_dev_mmio_read(d, PRTDCB_TUP2TC);
    for (unsigned up = 0; up < 8; up++) {
        ck_assert_uint_eq((reg >> (3 * up)) & 7, up2tc[up]);
    }
}
END_TEST

/* In DSCP mode ice sends Intel's DSCP TC-BW TLV instead of ETS-CFG; it has no priority table
 * and every one of the port's TCs is in use, whatever their bandwidth. */
START_TEST(dscp_mode_mib_enables_every_tc)
{
    uint8_t mib[32] = { 127 << 1, 25, 0xff, 0xff, 0xff, 0x43, 8 & 7 };  /* maxtc 8, coded 0 */
    unsigned len = 2 + 25;
    FwEtsCfg ets;
    uint32_t reg;

    mib[7 + 4] = 100;                             /* TC0 all bandwidth; bytes 1-4 reserved */
    ck_assert_uint_eq(set_local_mib(mib, len + 2, len + 2), AQ_RC_OK);
    fw_dcb_get_ets(d->dcb, &ets);
    ck_assert_uint_eq(ets.tc_bitmap, 0xff);
    ck_assert_uint_eq(ets.tc_bw[0], 100);
    reg = irdma_dev_mmio_read(d, PRTDCB_TUP2TC);
    for (unsigned up = 0; up < 8; up++) {
        ck_assert_uint_eq((reg >> (3 * up)) & 7, up);
    }
}
END_TEST

START_TEST(malformed_local_mib_is_einval)
{
    static const uint8_t up2tc[8] = { 0 };
    static const uint8_t bw[8] = { 100 };
    uint8_t mib[64];
    unsigned len = build_ets_mib(mib, up2tc, bw);

    ck_assert_uint_eq(set_local_mib(mib, len, len + 10), AQ_RC_EINVAL);   /* length > buffer */
    mib[1] = 60;                                                          /* TLV runs past end */
    ck_assert_uint_eq(set_local_mib(mib, len, len), AQ_RC_EINVAL);
    mib[1] = 20;                                                          /* ETS-CFG too short */
    ck_assert_uint_eq(set_local_mib(mib, len, len), AQ_RC_EINVAL);
}
END_TEST

START_TEST(pfc_mode_is_echoed_and_checked)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    AqtResp r;

    params[0] = 2;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PFC_MODE, 0, params, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0], 2);
    memset(params, 0, sizeof(params));
    ck_assert_uint_eq(aqt_send(h, d, AQC_QUERY_PFC_MODE, 0, params, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0], 2);
    params[0] = 5;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PFC_MODE, 0, params, NULL, 0, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(query_port_ets_reports_tc_nodes_of_the_root)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t buf[64];

    st32(params, fw_sched_root_teid(d->sched));
    ck_assert_uint_eq(aqt_send(h, d, AQC_QUERY_PORT_ETS, 0, params, buf, sizeof(buf), NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(buf[0], 0x01);
    ck_assert_uint_eq(ld32(buf + 32), fw_sched_tc_teid(d->sched, 0));
    ck_assert_uint_eq(ld32(buf + 36), FW_SCHED_INVALID_TEID);
    st32(params, 0x12345);
    ck_assert_uint_eq(aqt_send(h, d, AQC_QUERY_PORT_ETS, 0, params, buf, sizeof(buf), NULL),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(lldp_agent_controls_are_accepted_and_traced)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    AqtResp r;

    /* 6.12 ice_aq_cfg_lldp_mib_change: events on, with ICE_AQ_LLDP_MIB_PENDING_ENABLE */
    params[0] = 0x02;
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_SET_MIB_CHANGE, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_lldp_mib_change_events: on, pending too"), 1);
    params[0] = 0x01;                                         /* MIB change events off */
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_SET_MIB_CHANGE, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_lldp_mib_change_events: off"), 1);
    params[0] = 0x01;                                         /* start the DCBX agent */
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_STOP_START_AGENT, 0, params, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0], 0x01);                     /* echoed: "ACTIVE" */
    params[0] = 0x00;                                         /* add the LLDP Rx filter */
    st16(params + 2, 5);
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_FILTER_CTRL, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_lldp_filter: add vsi 5"), 1);
    params[0] = 0x01;
    ck_assert_uint_eq(aqt_send(h, d, AQC_LLDP_FILTER_CTRL, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_lldp_filter: delete vsi 5"), 1);
}
END_TEST

Suite *fw_dcb_suite(void)
{
    Suite *s = suite_create("fw_dcb");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, agent_runs_by_default_and_local_mib_is_one_tc);
    tcase_add_test(tc, stopping_the_agent_switches_to_software_dcbx);
    tcase_add_test(tc, set_local_mib_sets_up2tc_and_tcs);
    tcase_add_test(tc, dscp_mode_mib_enables_every_tc);
    tcase_add_test(tc, malformed_local_mib_is_einval);
    tcase_add_test(tc, pfc_mode_is_echoed_and_checked);
    tcase_add_test(tc, query_port_ets_reports_tc_nodes_of_the_root);
    tcase_add_test(tc, lldp_agent_controls_are_accepted_and_traced);
    suite_add_tcase(s, tc);
    return s;
}
