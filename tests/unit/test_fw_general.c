/* test_fw_general.c - AQ handlers of fw/general.c: good commands, and malformed ones answered with the
 * firmware's error codes. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw/fw.h"
#include "emu/core/le.h"

/* Sends list_caps @opcode into @buf (4 KiB); returns the number of 32-byte elements. */
static unsigned list_caps(uint16_t opcode, uint8_t *buf)
{
    AqtResp r;
    unsigned count;

    ck_assert_uint_eq(aqt_send(h, d, opcode, 0, NULL, buf, 4096, &r), AQ_RC_OK);
    count = ld32(r.params + 4);
    ck_assert_uint_eq(r.datalen, 32 * count);
    return count;
}

/* Finds capability @cap in a list_caps response; returns its element or NULL. */
static const uint8_t *find_cap(const uint8_t *buf, unsigned count, uint16_t cap)
{
    for (unsigned i = 0; i < count; i++) {
        if (ld16(buf + 32 * i) == cap) {
            return buf + 32 * i;
        }
    }
    return NULL;
}

START_TEST(caps_advertise_rdma_vsi_queues_and_msix)
{
    uint8_t buf[4096];
    uint16_t opcodes[] = { AQC_LIST_FUNC_CAPS, AQC_LIST_DEV_CAPS };

    for (size_t i = 0; i < G_N_ELEMENTS(opcodes); i++) {
        unsigned count = list_caps(opcodes[i], buf);
        const uint8_t *e;

        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0051));      /* RDMA */
        ck_assert_uint_eq(ld32(e + 4), 1);
        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0005));      /* valid functions */
        ck_assert_uint_eq(ld32(e + 4), 0x1);
        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0017));      /* VSIs */
        ck_assert_uint_eq(ld32(e + 4), FW_NUM_VSI);
        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0043));      /* MSI-X */
        ck_assert_uint_eq(ld32(e + 4), d->cfg.msix_vectors);
        ck_assert_uint_eq(ld32(e + 12), 0);                           /* first vector 0 */
        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0018));      /* DCB */
        ck_assert_uint_eq(ld32(e + 12), FW_MAX_TC);
        ck_assert_ptr_nonnull(find_cap(buf, count, 0x0045));          /* flow director */
    }
}
END_TEST

/* ice_parse_common_caps: rss_table_size is what ice 6.12 on requires of the PF LUT
 * (ICE_LUT_PF_SIZE 2048, __ice_aq_get_set_rss_lut); entry width 6 = up to 64 queues per VSI.
 * TX_SCHED_TOPO_COMP_MODE (0x0085, number 1) lets ice 6.12 on query the Tx topology
 * (ice_cfg_tx_topo) instead of giving up with EOPNOTSUPP. */
START_TEST(caps_rss_table_is_2k_and_tx_topology_is_queryable)
{
    uint8_t buf[4096];
    uint16_t opcodes[] = { AQC_LIST_FUNC_CAPS, AQC_LIST_DEV_CAPS };

    for (size_t i = 0; i < G_N_ELEMENTS(opcodes); i++) {
        unsigned count = list_caps(opcodes[i], buf);
        const uint8_t *e;

        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0040));      /* RSS */
        ck_assert_uint_eq(ld32(e + 4), 2048);
        ck_assert_uint_eq(ld32(e + 8), 6);
        ck_assert_ptr_nonnull(e = find_cap(buf, count, 0x0085));      /* Tx topology */
        ck_assert_uint_eq(ld32(e + 4), 1);
        ck_assert_ptr_null(find_cap(buf, count, 0x0080));             /* NVM management */
        ck_assert_ptr_null(find_cap(buf, count, 0x0088));             /* sensor reading */
    }
}
END_TEST

START_TEST(caps_into_a_short_buffer_is_enomem_with_the_count)
{
    uint8_t buf[64];
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_LIST_FUNC_CAPS, 0, NULL, buf, sizeof(buf), &r),
                      AQ_RC_ENOMEM);
    ck_assert_uint_gt(ld32(r.params + 4), 2);
}
END_TEST

/* ice 7.3 ice_config_health_events: PF-specific | global on load, 0 on unload. */
START_TEST(health_sources_are_accepted_and_checked)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = 0x01 | 0x04;       /* ICE_AQC_HEALTH_STATUS_SET_PF_SPECIFIC_MASK | GLOBAL */
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_HEALTH_STATUS_CFG, 0, params, NULL, 0, NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_health_sources: 0x05"), 1);
    params[0] = 0;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_HEALTH_STATUS_CFG, 0, params, NULL, 0, NULL),
                      AQ_RC_OK);
    params[0] = 0x08;
    ck_assert_uint_eq(aqt_send(h, d, AQC_SET_HEALTH_STATUS_CFG, 0, params, NULL, 0, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

/* ice 6.12 ice_fwlog.c / 7.3 libie fwlog: the query ice_fwlog_set_supported sends (0xFF32,
 * ICE_AQC_FW_LOG_AQ_QUERY, 4 KiB buffer), then the set and unregister of ice_fwlog_deinit. */
#define FWLOG_ID_MAX 32             /* ICE_AQC_FW_LOG_ID_MAX */

static uint16_t fwlog_query(uint8_t *buf, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    params[0] = 0x04;               /* ICE_AQC_FW_LOG_AQ_QUERY */
    return aqt_send(h, d, AQC_FW_LOGS_QUERY, 0, params, buf, 4096, r);
}

START_TEST(fw_log_query_set_and_register_like_ice)
{
    static uint8_t buf[4096];
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t mods[FWLOG_ID_MAX * 4] = { 0 };
    AqtResp r;

    ck_assert_uint_eq(fwlog_query(buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(ld16(r.params + 6), FWLOG_ID_MAX);       /* mdl_cnt */
    ck_assert_uint_ge(ld16(r.params + 4), 1);                  /* log_resolution 1..128 */
    ck_assert_uint_le(ld16(r.params + 4), 128);
    ck_assert_uint_eq(r.params[0] & 0x07, 0);    /* UART_EN, AQ_EN, REGISTERED: all off */
    ck_assert_uint_eq(r.datalen, FWLOG_ID_MAX * 4);
    for (unsigned i = 0; i < FWLOG_ID_MAX; i++) {
        ck_assert_uint_eq(ld16(buf + 4 * i), i);
        ck_assert_uint_eq(buf[4 * i + 2], 0);                  /* ICE_FWLOG_LEVEL_NONE */
    }

    /* ice_aq_fwlog_set: SET_VALID | AQ_EN, every module, RD buffer. */
    for (unsigned i = 0; i < FWLOG_ID_MAX; i++) {
        st16(mods + 4 * i, i);
        mods[4 * i + 2] = i == 8 ? 4 : 1;                      /* ADMINQ verbose */
    }
    params[0] = 0x08 | 0x02;
    st16(params + 4, 20);
    st16(params + 6, FWLOG_ID_MAX);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_CONFIG, AQ_FLAG_RD, params, mods, sizeof(mods),
                               NULL), AQ_RC_OK);
    memset(params, 0, sizeof(params));
    params[0] = 0x01;                                          /* ICE_AQC_FW_LOG_AQ_REGISTER */
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_REGISTER, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fwlog_query(buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0] & 0x07, 0x02 | 0x04);        /* AQ_EN, REGISTERED */
    ck_assert_uint_eq(ld16(r.params + 4), 20);
    ck_assert_uint_eq(buf[4 * 8 + 2], 4);
    ck_assert_uint_eq(buf[4 * 9 + 2], 1);

    /* A PF reset keeps it; ice_fwlog_deinit turns it off and unregisters. */
    ck_assert_uint_eq(aqt_send(h, d, AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fwlog_query(buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0] & 0x07, 0x02 | 0x04);
    memset(params, 0, sizeof(params));
    params[0] = 0x08;
    st16(params + 4, 20);
    st16(params + 6, FWLOG_ID_MAX);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_CONFIG, AQ_FLAG_RD, params, mods, sizeof(mods),
                               NULL), AQ_RC_OK);
    params[0] = 0;
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_REGISTER, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fwlog_query(buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.params[0] & 0x07, 0);
}
END_TEST

START_TEST(fw_log_malformed_config_changes_nothing)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };
    uint8_t mods[8] = { 0 };
    static uint8_t buf[4096];
    AqtResp r;

    params[0] = 0x08;
    st16(params + 4, 0);                                       /* resolution below 1 */
    st16(params + 6, 1);
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_CONFIG, AQ_FLAG_RD, params, mods, 4, NULL),
                      AQ_RC_EINVAL);
    st16(params + 4, 10);
    st16(params + 6, 2);                                       /* 2 modules in 4 bytes */
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_CONFIG, AQ_FLAG_RD, params, mods, 4, NULL),
                      AQ_RC_EINVAL);
    st16(mods, 1);
    mods[2] = 3;
    st16(mods + 4, FWLOG_ID_MAX);                              /* no such module */
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_CONFIG, AQ_FLAG_RD, params, mods, 8, NULL),
                      AQ_RC_EINVAL);
    ck_assert_uint_eq(fwlog_query(buf, &r), AQ_RC_OK);
    ck_assert_uint_eq(buf[4 * 1 + 2], 0);                      /* module 1 untouched */
    memset(params, 0, sizeof(params));                         /* a query without QUERY */
    ck_assert_uint_eq(aqt_send(h, d, AQC_FW_LOGS_QUERY, 0, params, buf, 4096, NULL),
                      AQ_RC_EINVAL);
}
END_TEST

static uint16_t res_cmd(uint16_t opcode, unsigned id, unsigned access, AqtResp *r)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0 };

    st16(params, id);
    st16(params + 2, access);
    return aqt_send(h, d, opcode, 0, params, NULL, 0, r);
}

START_TEST(resources_are_exclusive_until_released)
{
    AqtResp r;

    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 1, 1, &r), AQ_RC_OK);         /* NVM read */
    ck_assert_uint_eq(ld32(r.params + 4), 3000);
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 1, 1, &r), AQ_RC_EBUSY);
    ck_assert_uint_eq(ld32(r.params + 4), 3000);                        /* holder's timeout */
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 3, 2, NULL), AQ_RC_OK);       /* change lock */
    ck_assert_uint_eq(res_cmd(AQC_RELEASE_RES, 1, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(res_cmd(AQC_RELEASE_RES, 1, 0, NULL), AQ_RC_EPERM);
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 1, 2, &r), AQ_RC_OK);         /* NVM write */
    ck_assert_uint_eq(ld32(r.params + 4), 180000);
}
END_TEST

START_TEST(bad_resource_requests_are_einval)
{
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 0, 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 9, 1, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 1, 7, NULL), AQ_RC_EINVAL);
    ck_assert_uint_eq(res_cmd(AQC_RELEASE_RES, 0xffff, 0, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(pf_reset_releases_resources)
{
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 4, 2, NULL), AQ_RC_OK);
    ck_assert_uint_eq(aqt_send(h, d, AQC_CLEAR_PF_CFG, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(res_cmd(AQC_REQ_RES, 4, 2, NULL), AQ_RC_OK);
}
END_TEST

START_TEST(manage_mac_read_returns_the_lan_mac)
{
    uint8_t buf[16] = { 0 };
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_MANAGE_MAC_READ, 0, NULL, buf, sizeof(buf), &r),
                      AQ_RC_OK);
    ck_assert(ld16(r.params) & 0x0010);
    ck_assert_uint_eq(r.params[4], 1);
    ck_assert_uint_eq(buf[1], 0);
    ck_assert_mem_eq(buf + 2, d->cfg.mac, 6);
    ck_assert_uint_eq(aqt_send(h, d, AQC_MANAGE_MAC_READ, 0, NULL, buf, 4, NULL), AQ_RC_ENOMEM);
}
END_TEST

START_TEST(driver_version_and_shutdown_are_accepted)
{
    uint8_t ver[32] = "6.1.0-57-amd64";
    uint8_t params[AQ_PARAMS_SIZE] = { 0xff, 0xff, 0xff, 0xff };

    ck_assert_uint_eq(aqt_send(h, d, AQC_DRIVER_VER, AQ_FLAG_RD, params, ver, sizeof(ver), NULL),
                      AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_driver_version: \"6.1.0-57-amd64\""), 1);
    params[0] = 1;
    ck_assert_uint_eq(aqt_send(h, d, AQC_Q_SHUTDOWN, 0, params, NULL, 0, NULL), AQ_RC_OK);
    ck_assert_uint_eq(fake_host_trace_count(h, "fw_q_shutdown: driver unloading"), 1);
}
END_TEST

START_TEST(clear_pxe_mode_is_accepted)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0x2 };

    ck_assert_uint_eq(aqt_send(h, d, AQC_CLEAR_PXE_MODE, 0, params, NULL, 0, NULL), AQ_RC_OK);
}
END_TEST

Suite *fw_general_suite(void)
{
    Suite *s = suite_create("fw_general");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, caps_advertise_rdma_vsi_queues_and_msix);
    tcase_add_test(tc, caps_into_a_short_buffer_is_enomem_with_the_count);
    tcase_add_test(tc, caps_rss_table_is_2k_and_tx_topology_is_queryable);
    tcase_add_test(tc, health_sources_are_accepted_and_checked);
    tcase_add_test(tc, fw_log_query_set_and_register_like_ice);
    tcase_add_test(tc, fw_log_malformed_config_changes_nothing);
    tcase_add_test(tc, resources_are_exclusive_until_released);
    tcase_add_test(tc, bad_resource_requests_are_einval);
    tcase_add_test(tc, pf_reset_releases_resources);
    tcase_add_test(tc, manage_mac_read_returns_the_lan_mac);
    tcase_add_test(tc, driver_version_and_shutdown_are_accepted);
    tcase_add_test(tc, clear_pxe_mode_is_accepted);
    suite_add_tcase(s, tc);
    return s;
}
