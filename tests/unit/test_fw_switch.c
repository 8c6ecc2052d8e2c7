/* test_fw_switch.c - AQ handlers of fw/switch.c: good commands, and malformed ones answered with the
 * firmware's error codes. */
#include <check.h>
#include "lan_util.h"
#include "emu/fw/fw.h"
#include "emu/core/le.h"

#include "emu/fw/switch.h"

static uint16_t add_vsi(AqtResp *r)
{
    uint8_t props[128] = { 0 };
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(props, 0x0002);                     /* only "security" flagged, as ice does */
    props[2] = 0x5a;                         /* the switch section still counts */
    st16(params + 6, 0x2);                   /* PF VSI */
    return aqt_send(h, d, AQC_ADD_VSI, AQ_FLAG_RD, params, props, sizeof(props), r);
}

static uint16_t vsi_cmd(uint16_t opcode, unsigned vsi, const uint8_t *props)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t buf[128];

    st16(params, vsi | 0x8000);
    if (!props) {
        return aqt_send(h, d, opcode, 0, params, NULL, 0, NULL);
    }
    memcpy(buf, props, sizeof(buf));
    return aqt_send(h, d, opcode, AQ_FLAG_RD, params, buf, sizeof(buf), NULL);
}

START_TEST(get_sw_cfg_reports_the_physical_port)
{
    uint8_t buf[2048];
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_SW_CFG, 0, NULL, buf, sizeof(buf), &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 4), 1);
    ck_assert_uint_eq(ld16(r.params + 2), 0);
    ck_assert_uint_eq(r.datalen, 6);
    ck_assert_uint_eq(ld16(buf) >> 14, 0);
}
END_TEST

START_TEST(vsi_add_update_free)
{
    uint8_t props[128] = { 0 };
    AqtResp r;
    unsigned n;

    ck_assert_uint_eq(add_vsi(&r), AQ_RC_OK);
    n = ld16(r.params);
    ck_assert_uint_eq(ld16(r.params + 4), 1);
    ck_assert_uint_eq(ld16(r.params + 6), FW_NUM_VSI - 1);
    ck_assert_uint_eq(fw_switch_vsi_props(d->sw, n)[2], 0x5a);

    st16(props, 0x0080);                     /* queueing options only */
    props[80] = 0x01;                        /* PE filter enable */
    ck_assert_uint_eq(vsi_cmd(AQC_UPDATE_VSI, n, props), AQ_RC_OK);
    ck_assert_uint_eq(fw_switch_vsi_props(d->sw, n)[80], 0x01);
    ck_assert_uint_eq(fw_switch_vsi_props(d->sw, n)[2], 0x5a);   /* other sections kept */

    ck_assert_uint_eq(vsi_cmd(AQC_FREE_VSI, n, NULL), AQ_RC_OK);
    ck_assert_uint_eq(vsi_cmd(AQC_UPDATE_VSI, n, props), AQ_RC_ENOENT);
    ck_assert_uint_eq(vsi_cmd(AQC_FREE_VSI, n, NULL), AQ_RC_ENOENT);
    ck_assert_uint_eq(vsi_cmd(AQC_FREE_VSI, 1000, NULL), AQ_RC_ENOENT);
}
END_TEST

START_TEST(resources_allocate_distinct_ids_and_free_checks_them)
{
    uint8_t buf[8] = { 0 };
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    unsigned a, b;

    st16(params, 1);
    st16(buf, 0x03);                         /* VSI list (replication) */
    st16(buf + 2, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    a = ld16(buf + 4);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    b = ld16(buf + 4);
    ck_assert_uint_ne(a, b);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FREE_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FREE_RES, AQ_FLAG_RD, params, buf, 6, NULL),
                      AQ_RC_ENOENT);
    st16(buf, 0x7e);                         /* no such resource type */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL),
                      AQ_RC_EINVAL);
    st16(buf, 0x03);
    st16(buf + 2, 600);                      /* more than the pool has */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 8, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(a_large_request_gets_a_block_named_by_its_first_id)
{
    uint8_t buf[6] = { 0 };
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    unsigned first, single;

    st16(params, 1);
    st16(buf, 0x22);                         /* FD guaranteed entries, as ice_alloc_res_cntr */
    st16(buf + 2, 512);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    first = ld16(buf + 4);
    st16(buf + 2, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    single = ld16(buf + 4);
    ck_assert(single >= first + 512 || single < first);
    st16(buf + 2, 512);                      /* free the block by its first id */
    st16(buf + 4, first);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FREE_RES, AQ_FLAG_RD, params, buf, 6, NULL), AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FREE_RES, AQ_FLAG_RD, params, buf, 6, NULL),
                      AQ_RC_ENOENT);
    st16(buf + 2, 2048);                     /* the whole pool no longer fits */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, buf, 6, NULL),
                      AQ_RC_ENOSPC);
}
END_TEST

/* A MAC rule of @type for the port's address, forwarding to VSI 0. */
static unsigned build_mac_rule(uint8_t *r, uint16_t type)
{
    return lant_mac_rule(r, type, d->cfg.mac, 0);
}

START_TEST(rules_get_an_index_and_are_removed_by_it)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t r[64];
    unsigned len = build_mac_rule(r, 0);
    unsigned idx;

    st16(params, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    idx = ld16(r + 12);
    ck_assert_uint_eq(fw_switch_rule_count(d->sw), 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    ck_assert_uint_ne(ld16(r + 12), idx);
    st16(r + 12, idx);
    ck_assert_uint_eq(aqt_send(h, d, AQC_REMOVE_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_REMOVE_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_ENOENT);
    ck_assert_uint_eq(fw_switch_rule_count(d->sw), 1);
}
END_TEST

START_TEST(malformed_rules_are_einval)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t r[64];
    unsigned len = build_mac_rule(r, 0);

    st16(params, 1);
    st16(r + 14, 200);                       /* header longer than the buffer */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_EINVAL);
    build_mac_rule(r, 9);                    /* unknown rule type */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_EINVAL);
    build_mac_rule(r, 0);
    st16(params, 2);                         /* two rules announced, one present */
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_EINVAL);
    st16(params, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(vsi_list_rule_needs_an_allocated_list)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t r[16] = { 0 };

    st16(params, 1);
    st16(r, 3);                              /* VSI_LIST_SET */
    st16(r + 4, 7);                          /* list id never allocated */
    st16(r + 6, 1);
    st16(r + 8, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, 10, NULL),
                      AQ_RC_ENOENT);
}
END_TEST

/* ice subscribes a second VSI to an address another already has (the loopback self-test's
 * VSI to broadcast) by turning the rule into one forwarding to a VSI list (an update that keeps
 * the lookup): the switch then replicates each such frame to every member. */
START_TEST(a_vsi_list_rule_replicates_to_every_member)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint8_t params[AQ_PARAMS_SIZE] = { 0 }, res[6] = { 0 }, list[12] = { 0 }, r[64];
    uint8_t frame[64];
    unsigned vsi[2], got[4], len, list_id;
    AqtResp resp;

    for (unsigned i = 0; i < 2; i++) {
        ck_assert_uint_eq(add_vsi(&resp), AQ_RC_OK);
        vsi[i] = ld16(resp.params);
    }
    st16(params, 1);
    st16(res, 0x03);                         /* VSI list (replication) */
    st16(res + 2, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ALLOC_RES, AQ_FLAG_RD, params, res, 6, NULL), AQ_RC_OK);
    list_id = ld16(res + 4);
    st16(list, 3);                           /* VSI_LIST_SET: index, number, members */
    st16(list + 4, list_id);
    st16(list + 6, 2);
    st16(list + 8, vsi[0]);
    st16(list + 10, vsi[1]);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, list, 12, NULL),
                      AQ_RC_OK);
    /* The rule as first added for one VSI, then its action updated the way
     * ice_update_pkt_fwd_rule does: the rule without its header (hdr_len 0). */
    len = lant_mac_rule(r, 0, bcast, vsi[0]);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    memset(frame, 0xff, sizeof(frame));
    ck_assert_uint_eq(fw_switch_rx_lookup(d->sw, frame, sizeof(frame), got, 4), 1);
    st32(r + 8, (list_id << 4) | (1u << 14) | (1u << 15) | (1u << 17));   /* VSI_LIST, valid */
    st16(r + 14, 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPDATE_SW_RULES, AQ_FLAG_RD, params, r, 16, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(fw_switch_rx_lookup(d->sw, frame, sizeof(frame), got, 4), 2);
    ck_assert_uint_eq(got[0], vsi[0]);
    ck_assert_uint_eq(got[1], vsi[1]);
    ck_assert_uint_eq(fw_switch_rx_lookup(d->sw, frame, sizeof(frame), got, 1), 1);
    /* A member freed since no longer receives. */
    ck_assert_uint_eq(vsi_cmd(AQC_FREE_VSI, vsi[0], NULL), AQ_RC_OK);
    ck_assert_uint_eq(fw_switch_rx_lookup(d->sw, frame, sizeof(frame), got, 4), 1);
    ck_assert_uint_eq(got[0], vsi[1]);
}
END_TEST

START_TEST(rss_lut_and_key_per_vsi)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t lut[512], got[512], key[52];
    AqtResp r;
    unsigned n;

    ck_assert_uint_eq(add_vsi(&r), AQ_RC_OK);
    n = ld16(r.params);
    for (unsigned i = 0; i < sizeof(lut); i++) {
        lut[i] = i % 7;
    }
    st16(params, n | 0x8000);
    st16(params + 2, 1 | (1 << 2));          /* PF table, 512 entries */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_LUT, AQ_FLAG_RD, params, lut, 512, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 512, NULL), AQ_RC_OK);
    ck_assert_mem_eq(got, lut, 512);
    st16(params + 2, 1 | (2 << 2));          /* 2K on a 512-entry PF table */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_LUT, AQ_FLAG_RD, params, lut, 512, NULL),
                      AQ_RC_EINVAL);
    memset(key, 0x3c, sizeof(key));
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_KEY, AQ_FLAG_RD, params, key, 52, NULL),
                      AQ_RC_OK);
    st16(params, 700 | 0x8000);              /* no such VSI */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_KEY, AQ_FLAG_RD, params, key, 52, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

/* The PF table as ice 6.12/7.3 program it (__ice_aq_get_set_rss_lut: ICE_LUT_PF, 2048 bytes,
 * ICE_AQC_LUT_SIZE_2K) and as ice 6.1 reads it back (PF type, no size flag, a buffer of
 * rss_table_size = 2048 bytes); a VSI's own table is 64 entries (ICE_LUT_VSI_SIZE). */
START_TEST(pf_lut_2k_like_6_12_and_read_back_like_6_1)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    static uint8_t lut[2048], got[2048];
    AqtResp r;
    unsigned n;

    ck_assert_uint_eq(add_vsi(&r), AQ_RC_OK);
    n = ld16(r.params);
    st16(params, n | 0x8000);
    st16(params + 2, 1 | (2 << 2));          /* ICE_LUT_PF | ICE_AQC_LUT_SIZE_2K */
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 2048, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 2048);      /* never set: the 2K table, all zero */
    for (unsigned i = 0; i < sizeof(lut); i++) {
        lut[i] = i % 13;
    }
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_LUT, AQ_FLAG_RD, params, lut, 2048, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_rss_pf_lut: set at 2048 entries"), 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 2048, NULL), AQ_RC_OK);
    ck_assert_mem_eq(got, lut, 2048);
    memset(got, 0, sizeof(got));
    st16(params + 2, 1);                     /* 6.1's get: PF type only */
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 2048, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 2048);
    ck_assert_mem_eq(got, lut, 2048);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 512, NULL),
                      AQ_RC_EINVAL);         /* shorter than the table */
    st16(params + 2, 0);                     /* the VSI's own table */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_LUT, AQ_FLAG_RD, params, lut, 64, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_LUT, 0, params, got, 64, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.datalen, 64);
    ck_assert_mem_eq(got, lut, 64);
    st16(params + 2, 2 << 2);                /* a VSI table has no 2K size */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_LUT, AQ_FLAG_RD, params, lut, 2048, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

START_TEST(vlan_mode_is_single)
{
    uint8_t buf[100];

    memset(buf, 0xff, sizeof(buf));
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VLAN_MODE, 0, NULL, buf, sizeof(buf), NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(buf[0], 0);
}
END_TEST

START_TEST(pf_reset_drops_vsis_and_rules)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t r[64];
    unsigned len = build_mac_rule(r, 0);

    ck_assert_uint_eq(add_vsi(NULL), AQ_RC_OK);
    st16(params, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fw_switch_vsi_count(d->sw), 0);
    ck_assert_uint_eq(fw_switch_rule_count(d->sw), 0);
}
END_TEST

START_TEST(port_params_need_our_switch_id)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params, 0x0004);
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL), AQ_RC_OK);
    st16(params + 4, 3);
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

/* ice 6.12/7.3 ice_aq_set_port_params: local_fwd_mode | ICE_AQC_SET_P_PARAMS_LOCAL_FWD_MODE_VALID
 * in byte 6 (ICE_LOCAL_FWD_MODE_ENABLED at init); 6.1 leaves the byte zero. */
START_TEST(port_params_local_forwarding_mode_of_6_12)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[6] = 0 | 0x04;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_port_local_fwd: mode 0"), 1);
    params[6] = 2 | 0x04;                    /* ICE_LOCAL_FWD_MODE_PRIORITIZED */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL), AQ_RC_OK);
    params[6] = 3 | 0x04;                    /* no such mode */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL),
                      AQ_RC_EINVAL);
    params[6] = 0;                           /* 6.1: not valid, nothing changes */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_PORT_PARAMS, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_port_local_fwd"), 2);
}
END_TEST

START_TEST(set_vlan_mode_keeps_priority_tagging)
{
    uint8_t buf[100] = { 0 };

    buf[1] = 0x3;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_VLAN_MODE, AQ_FLAG_RD, NULL, buf, sizeof(buf), NULL),
                      AQ_RC_OK);
    memset(buf, 0, sizeof(buf));
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VLAN_MODE, 0, NULL, buf, sizeof(buf), NULL), AQ_RC_OK);
    ck_assert_uint_eq(buf[0], 0);
    ck_assert_uint_eq(buf[1], 0x3);
}
END_TEST

START_TEST(update_rule_by_index)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t r[64];
    unsigned len = build_mac_rule(r, 0);

    st16(params, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_ADD_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    st32(r + 8, 0x00040000);                 /* new action */
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPDATE_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_OK);
    st16(r + 12, ld16(r + 12) + 100);
    ck_assert_uint_eq(aqt_send(h, d, AQC_UPDATE_SW_RULES, AQ_FLAG_RD, params, r, len, NULL),
                      AQ_RC_ENOENT);
}
END_TEST

START_TEST(rss_key_reads_back)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t key[52], got[52];
    AqtResp r;

    ck_assert_uint_eq(add_vsi(&r), AQ_RC_OK);
    st16(params, ld16(r.params) | 0x8000);
    for (unsigned i = 0; i < sizeof(key); i++) {
        key[i] = i * 7;
    }
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_RSS_KEY, AQ_FLAG_RD, params, key, 52, NULL), AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_RSS_KEY, 0, params, got, 52, NULL), AQ_RC_OK);
    ck_assert_mem_eq(got, key, 52);
}
END_TEST

Suite *fw_switch_suite(void)
{
    Suite *s = suite_create("fw_switch");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, get_sw_cfg_reports_the_physical_port);
    tcase_add_test(tc, vsi_add_update_free);
    tcase_add_test(tc, resources_allocate_distinct_ids_and_free_checks_them);
    tcase_add_test(tc, a_large_request_gets_a_block_named_by_its_first_id);
    tcase_add_test(tc, rules_get_an_index_and_are_removed_by_it);
    tcase_add_test(tc, malformed_rules_are_einval);
    tcase_add_test(tc, vsi_list_rule_needs_an_allocated_list);
    tcase_add_test(tc, a_vsi_list_rule_replicates_to_every_member);
    tcase_add_test(tc, rss_lut_and_key_per_vsi);
    tcase_add_test(tc, vlan_mode_is_single);
    tcase_add_test(tc, pf_reset_drops_vsis_and_rules);
    tcase_add_test(tc, port_params_need_our_switch_id);
    tcase_add_test(tc, port_params_local_forwarding_mode_of_6_12);
    tcase_add_test(tc, set_vlan_mode_keeps_priority_tagging);
    tcase_add_test(tc, update_rule_by_index);
    tcase_add_test(tc, rss_key_reads_back);
    tcase_add_test(tc, pf_lut_2k_like_6_12_and_read_back_like_6_1);
    suite_add_tcase(s, tc);
    return s;
}
