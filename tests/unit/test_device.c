/* test_device.c - device creation, configuration checks and the PF reset registers. */
#include <check.h>
#include "aq_util.h"
#include "emu/core/e810_regs.h"
#include "emu/core/ids.h"
#include "emu/core/inet.h"

START_TEST(reset_status_says_device_active_and_all_resets_done)
{
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_RSTAT) & GLGEN_RSTAT_DEVSTATE_M, 0);
    /* ice_pf_reset: ICE_RESET_DONE_MASK = bits 0,1,3,4,5,8,9 must all be set; PE done too. */
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLNVM_ULD) & 0x33b, 0x33b);
    ck_assert(irdma_dev_mmio_read(d, GLNVM_ULD) & GLNVM_ULD_PE_DONE_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FUNC_RID) & PF_FUNC_RID_FUNC_NUM_M, 0);
    /* ice_flush()'s read: a status register with nothing to report. */
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_STAT), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_reg_read_unimplemented"), 0);
}
END_TEST

START_TEST(nvm_is_locked_with_a_64k_shadow_ram)
{
    ck_assert(irdma_dev_mmio_read(d, GLNVM_FLA) & GLNVM_FLA_LOCKED_M);
    ck_assert_uint_eq(emu_field_get(irdma_dev_mmio_read(d, GLNVM_GENS), GLNVM_GENS_SR_SIZE_M), 6);
}
END_TEST

/* 6.12 ice_wait_for_fw and 7.3 ice_wait_fw_load poll FW_LOADING at probe (6.1 never reads it). */
START_TEST(firmware_is_in_normal_mode_and_loaded)
{
    uint32_t fwsm = irdma_dev_mmio_read(d, GL_MNG_FWSM);

    ck_assert_uint_eq(fwsm & GL_MNG_FWSM_FW_MODES_M, 0);
    ck_assert_uint_eq(fwsm & GL_MNG_FWSM_FW_LOADING_M, 0);
    irdma_dev_mmio_write(d, GL_MNG_FWSM, ~0u);             /* firmware's, read-only */
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GL_MNG_FWSM), fwsm);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_reg_read_unimplemented"), 0);
}
END_TEST

START_TEST(pfswr_resets_the_pf_and_self_clears)
{
    irdma_dev_mmio_write(d, PF_FW_ATQBAL, 0x12345000);
    irdma_dev_mmio_write(d, PF_FW_ATQLEN, 192 | PF_FW_xQLEN_ENABLE_M);
    irdma_dev_mmio_write(d, PF_MBX_ARQLEN, 1023 | PF_FW_xQLEN_ENABLE_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQBAL), 0x12345000);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQLEN), 192 | PF_FW_xQLEN_ENABLE_M);

    irdma_dev_mmio_write(d, PFGEN_CTRL, PFGEN_CTRL_PFSWR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFGEN_CTRL) & PFGEN_CTRL_PFSWR_M, 0);
    ck_assert_uint_eq(d->pf_resets, 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQBAL), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQLEN), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_MBX_ARQLEN), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "pf_reset"), 1);
}
END_TEST

START_TEST(ring_registers_keep_only_software_writable_bits)
{
    irdma_dev_mmio_write(d, PF_FW_ATQT, 0xffffffff);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQT), PF_FW_xQT_M);
    irdma_dev_mmio_write(d, PF_FW_ARQLEN, 0x0fffffff);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ARQLEN), PF_FW_xQLEN_LEN_M);
}
END_TEST

START_TEST(bad_configuration_is_refused_with_its_value_named)
{
    static const uint8_t mac[6] = { 0x52, 0x54, 0, 0, 0, 1 };
    IrdmaDevConfig cfg;
    g_autoptr(GError) err = NULL;
    g_autoptr(GError) err2 = NULL;
    g_autoptr(GError) err3 = NULL;
    g_autoptr(GError) err4 = NULL;

    irdma_dev_config_init(&cfg);
    memcpy(cfg.mac, mac, sizeof(mac));
    cfg.msix_vectors = 5000;
    ck_assert_ptr_null(irdma_dev_new(&fake_host_ops, h, &cfg, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "msix-vectors=5000"));

    cfg.msix_vectors = IRDMA_MSIX_VECTORS_DEFAULT;
    cfg.mac[0] = 0x01;
    ck_assert_ptr_null(irdma_dev_new(&fake_host_ops, h, &cfg, &err2));
    ck_assert_ptr_nonnull(strstr(err2->message, "mac=01:54:00:00:00:01"));

    cfg.mac[0] = 0x52;
    cfg.link_speed_mbps = 40000;
    ck_assert_ptr_null(irdma_dev_new(&fake_host_ops, h, &cfg, &err3));
    ck_assert_ptr_nonnull(strstr(err3->message, "speed=40000"));

    cfg.link_speed_mbps = IRDMA_LINK_SPEED_DEFAULT;
    cfg.timing.clock_mhz = 0;
    ck_assert_ptr_null(irdma_dev_new(&fake_host_ops, h, &cfg, &err4));
    ck_assert_ptr_nonnull(strstr(err4->message, "timing-clock-mhz=0"));
}
END_TEST

START_TEST(rx_queue_enable_handshake_is_immediate)
{
    irdma_dev_mmio_write(d, QRX_CTRL(5), QRX_CTRL_QENA_REQ_M);
    ck_assert(irdma_dev_mmio_read(d, QRX_CTRL(5)) & QRX_CTRL_QENA_STAT_M);
    ck_assert(!(irdma_dev_mmio_read(d, QRX_CTRL(4)) & QRX_CTRL_QENA_STAT_M));
    /* The guest cannot set the status bit itself. */
    irdma_dev_mmio_write(d, QRX_CTRL(6), QRX_CTRL_QENA_STAT_M);
    ck_assert(!(irdma_dev_mmio_read(d, QRX_CTRL(6)) & QRX_CTRL_QENA_STAT_M));
    irdma_dev_mmio_write(d, QRX_CTRL(5), 0);
    ck_assert(!(irdma_dev_mmio_read(d, QRX_CTRL(5)) & QRX_CTRL_QENA_STAT_M));
    irdma_dev_mmio_write(d, QRX_CTRL(7), QRX_CTRL_QENA_REQ_M);
    irdma_dev_mmio_write(d, QRX_CONTEXT(3, 7), 0xabcd);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, QRX_CONTEXT(3, 7)), 0xabcd);
    irdma_dev_mmio_write(d, PFGEN_CTRL, PFGEN_CTRL_PFSWR_M);
    ck_assert(!(irdma_dev_mmio_read(d, QRX_CTRL(7)) & QRX_CTRL_QENA_STAT_M));
    ck_assert_uint_eq(irdma_dev_mmio_read(d, QRX_CONTEXT(3, 7)), 0);
}
END_TEST

START_TEST(corer_warns_through_oicr_then_resets)
{
    irdma_dev_mmio_write(d, PFINT_OICR_ENA, PFINT_OICR_GRST_M);
    irdma_dev_mmio_write(d, PFINT_OICR_CTL, PFINT_CTL_CAUSE_ENA_M | 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(0), GLINT_DYN_CTL_INTENA_M);
    irdma_dev_mmio_write(d, PF_FW_ATQLEN, 192 | PF_FW_xQLEN_ENABLE_M);
    irdma_dev_mmio_write(d, GLGEN_RTRIG, GLGEN_RTRIG_CORER_M);
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(emu_field_get(irdma_dev_mmio_read(d, GLGEN_RSTAT), GLGEN_RSTAT_RESET_TYPE_M), 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_RSTAT) & GLGEN_RSTAT_DEVSTATE_M, 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR) & PFINT_OICR_GRST_M, PFINT_OICR_GRST_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQLEN), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), 0);     /* interrupt config reset */
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_RTRIG), 0);        /* self-clearing */
    irdma_dev_mmio_write(d, GLGEN_RTRIG, GLGEN_RTRIG_GLOBR_M);
    ck_assert_uint_eq(emu_field_get(irdma_dev_mmio_read(d, GLGEN_RSTAT), GLGEN_RSTAT_RESET_TYPE_M), 2);
    ck_assert_uint_eq(fake_host_trace_count(h, "pf_core_reset"), 2);
}
END_TEST

/* The verification vectors of the RSS specification (Microsoft's "Verifying the RSS hash
 * calculation"): the default 40-byte key, IPv4 with and without TCP ports. */
START_TEST(toeplitz_matches_the_rss_verification_vectors)
{
    static const uint8_t key[40] = {
        0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
        0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
        0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
    };
    /* 66.9.149.187:2794 -> 161.142.100.80:1766 */
    static const uint8_t in[12] = { 66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6 };

    ck_assert_uint_eq(toeplitz_hash(key, in, 12), 0x51ccc178);
    ck_assert_uint_eq(toeplitz_hash(key, in, 8), 0x323e8fc2);
}
END_TEST

Suite *device_suite(void)
{
    Suite *s = suite_create("device");
    TCase *tc = tcase_create("pf");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, reset_status_says_device_active_and_all_resets_done);
    tcase_add_test(tc, nvm_is_locked_with_a_64k_shadow_ram);
    tcase_add_test(tc, firmware_is_in_normal_mode_and_loaded);
    tcase_add_test(tc, pfswr_resets_the_pf_and_self_clears);
    tcase_add_test(tc, ring_registers_keep_only_software_writable_bits);
    tcase_add_test(tc, bad_configuration_is_refused_with_its_value_named);
    tcase_add_test(tc, rx_queue_enable_handshake_is_immediate);
    tcase_add_test(tc, corer_warns_through_oicr_then_resets);
    tcase_add_test(tc, toeplitz_matches_the_rss_verification_vectors);
    suite_add_tcase(s, tc);
    return s;
}
