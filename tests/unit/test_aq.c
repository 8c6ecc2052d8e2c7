/* test_aq.c - the admin queue engine: ring protocol, buffer rules, errors, ARQ events. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw/aq.h"
#include "emu/core/e810_regs.h"
#include "emu/fw/fw.h"
#include "emu/core/intr.h"
#include "emu/core/le.h"

START_TEST(get_version_completes_with_dd_cmp_and_advances_head)
{
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.flags & (AQ_FLAG_DD | AQ_FLAG_CMP | AQ_FLAG_ERR), AQ_FLAG_DD | AQ_FLAG_CMP);
    ck_assert_uint_eq(r.opcode, AQC_GET_VER);
    ck_assert_uint_eq(r.params[13], FW_API_MAJOR);
    ck_assert_uint_eq(r.params[14], FW_API_MINOR);
    ck_assert_uint_eq(r.params[9], FW_VER_MAJOR);
    ck_assert_uint_eq(ld32(r.params + 4), FW_VER_BUILD);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 1);
}
END_TEST

/* Under model timing the commands complete by event, once the clock has moved; under inline
 * timing in the doorbell write itself. */
START_TEST(completion_waits_for_the_modelled_delay)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING;

    st16(desc + AQ_DESC_OPCODE, AQC_GET_VER);
    st16(desc + AQ_DESC_SIZE + AQ_DESC_OPCODE, AQC_GET_VER);
    d->timing.mode = TIMING_MODEL;
    d->timing.p.aq_cmd_ns = 5000;
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
    ck_assert(h->timer_armed);
    fake_host_advance(h, d, h->now_ns + 4999);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
    fake_host_advance(h, d, h->now_ns + 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 1);
    d->timing.mode = TIMING_INLINE;
    irdma_dev_mmio_write(d, PF_FW_ATQT, 2);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 2);
    ck_assert_uint_eq(ld16(desc + AQ_DESC_SIZE + AQ_DESC_FLAGS) & AQ_FLAG_DD, AQ_FLAG_DD);
}
END_TEST

START_TEST(ring_wraps_around)
{
    for (unsigned i = 0; i < AQT_RING_LEN + 3; i++) {
        ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    }
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 3);
}
END_TEST

/* "Bad opcode", as ice 7.3 expects of a firmware without the command (ice_dpll.c). */
START_TEST(unknown_opcode_is_esrch_with_err_flag)
{
    AqtResp r;

    ck_assert_uint_eq(aqt_send(h, d, 0x0F0F, 0, NULL, NULL, 0, &r), AQ_RC_ESRCH);
    ck_assert(r.flags & AQ_FLAG_ERR);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_aq_unknown_opcode: opcode=0x0f0f"), 1);
}
END_TEST

START_TEST(missing_buffer_is_einval)
{
    ck_assert_uint_eq(aqt_send(h, d, AQC_LIST_FUNC_CAPS, 0, NULL, NULL, 0, NULL), AQ_RC_EINVAL);
}
END_TEST

START_TEST(input_buffer_without_rd_is_einval)
{
    uint8_t buf[16] = "6.1.0";

    ck_assert_uint_eq(aqt_send(h, d, AQC_DRIVER_VER, 0, NULL, buf, sizeof(buf), NULL),
                      AQ_RC_EINVAL);
    ck_assert_uint_eq(aqt_send(h, d, AQC_DRIVER_VER, AQ_FLAG_RD, NULL, buf, sizeof(buf), NULL),
                      AQ_RC_OK);
}
END_TEST

START_TEST(large_buffer_without_lb_is_einval)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING;
    AqtResp r;

    memset(desc, 0, AQ_DESC_SIZE);
    st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_SI);
    st16(desc + AQ_DESC_OPCODE, AQC_LIST_FUNC_CAPS);
    st16(desc + AQ_DESC_DATALEN, 1024);
    st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L, AQT_ATQ_BUF);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000);
    r.retval = ld16(desc + AQ_DESC_RETVAL);
    ck_assert_uint_eq(r.retval, AQ_RC_EINVAL);
}
END_TEST

START_TEST(oversized_datalen_is_einval)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING;

    memset(desc, 0, AQ_DESC_SIZE);
    st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_LB | AQ_FLAG_SI);
    st16(desc + AQ_DESC_OPCODE, AQC_LIST_FUNC_CAPS);
    st16(desc + AQ_DESC_DATALEN, AQ_MAX_BUF + 1);
    st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_L, AQT_ATQ_BUF);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert_uint_eq(ld16(desc + AQ_DESC_RETVAL), AQ_RC_EINVAL);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 1);
}
END_TEST

START_TEST(unbacked_buffer_address_is_efault)
{
    uint8_t *desc = h->mem + AQT_ATQ_RING;

    memset(desc, 0, AQ_DESC_SIZE);
    st16(desc + AQ_DESC_FLAGS, AQ_FLAG_BUF | AQ_FLAG_RD | AQ_FLAG_SI);
    st16(desc + AQ_DESC_OPCODE, AQC_DRIVER_VER);
    st16(desc + AQ_DESC_DATALEN, 16);
    st32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H, 0x7fff);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert_uint_eq(ld16(desc + AQ_DESC_RETVAL), AQ_RC_EFAULT);
    ck_assert_uint_eq(ld32(desc + AQ_DESC_PARAMS + AQ_PARAM_ADDR_H), 0x7fff);
}
END_TEST

START_TEST(unbacked_ring_sets_critical_error)
{
    irdma_dev_mmio_write(d, PF_FW_ATQBAH, 0x7fff);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert(irdma_dev_mmio_read(d, PF_FW_ATQLEN) & PF_FW_xQLEN_CRIT_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
}
END_TEST

START_TEST(tail_beyond_ring_sets_critical_error)
{
    irdma_dev_mmio_write(d, PF_FW_ATQT, AQT_RING_LEN + 2);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert(irdma_dev_mmio_read(d, PF_FW_ATQLEN) & PF_FW_xQLEN_CRIT_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
}
END_TEST

START_TEST(disabled_queue_is_not_processed)
{
    irdma_dev_mmio_write(d, PF_FW_ATQLEN, AQT_RING_LEN);
    st16(h->mem + AQT_ATQ_RING + AQ_DESC_OPCODE, AQC_GET_VER);
    irdma_dev_mmio_write(d, PF_FW_ATQT, 1);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
}
END_TEST

START_TEST(arq_event_is_written_and_interrupts)
{
    uint8_t params[AQ_PARAMS_SIZE] = { 0x11, 0x22 };
    uint8_t data[32] = { 0xaa, 0xbb, 0xcc };
    uint8_t got[32];
    AqtResp ev;

    irdma_dev_mmio_write(d, PFINT_FW_CTL, PFINT_CTL_CAUSE_ENA_M | 5);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(5), GLINT_DYN_CTL_INTENA_M);
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, params, data, sizeof(data));
    ck_assert(aqt_next_event(h, d, &ev, got, sizeof(got)));
    ck_assert_uint_eq(ev.opcode, AQC_GET_LINK_STATUS);
    ck_assert_uint_eq(ev.datalen, sizeof(data));
    ck_assert_uint_eq(ev.params[0], 0x11);
    ck_assert_mem_eq(got, data, sizeof(data));
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 0), 5);
    ck_assert(!aqt_next_event(h, d, &ev, NULL, 0));
}
END_TEST

START_TEST(arq_event_waits_for_a_posted_slot)
{
    AqtResp ev;

    irdma_dev_mmio_write(d, PF_FW_ARQT, 0);          /* no slot posted: head == tail */
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, NULL, NULL, 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ARQH), 0);
    irdma_dev_mmio_write(d, PF_FW_ARQT, 1);          /* the driver posts one */
    ck_assert(aqt_next_event(h, d, &ev, NULL, 0));
    ck_assert_uint_eq(ev.opcode, AQC_GET_LINK_STATUS);
}
END_TEST

START_TEST(masked_vector_fires_when_reenabled)
{
    irdma_dev_mmio_write(d, PFINT_FW_CTL, PFINT_CTL_CAUSE_ENA_M | 2);
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, NULL, NULL, 0);
    ck_assert_uint_eq(h->irqs->len, 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(2), GLINT_DYN_CTL_INTENA_M);
    ck_assert_uint_eq(h->irqs->len, 1);
    /* Auto-masked after firing: a second cause waits for the next re-enable. */
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, NULL, NULL, 0);
    ck_assert_uint_eq(h->irqs->len, 1);
}
END_TEST

START_TEST(reenabling_with_clearpba_keeps_a_latched_cause)
{
    irdma_dev_mmio_write(d, PFINT_FW_CTL, PFINT_CTL_CAUSE_ENA_M | 3);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(3), GLINT_DYN_CTL_INTENA_M);
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, NULL, NULL, 0);      /* fires, auto-masks */
    aq_post_event(d->aq, AQC_GET_LINK_STATUS, NULL, NULL, 0);      /* latched */
    ck_assert_uint_eq(h->irqs->len, 1);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(3), GLINT_DYN_CTL_INTENA_M | GLINT_DYN_CTL_CLEARPBA_M);
    ck_assert_uint_eq(h->irqs->len, 2);
}
END_TEST

START_TEST(swint_fires_even_while_masked)
{
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(9), GLINT_DYN_CTL_SWINT_TRIG_M | GLINT_DYN_CTL_INTENA_MSK_M);
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 0), 9);
    ck_assert(!(irdma_dev_mmio_read(d, GLINT_DYN_CTL(9)) & GLINT_DYN_CTL_INTENA_M));
}
END_TEST

/* ice's interrupt self-test: SWINT_TRIG on the OICR vector latches PFINT_OICR.SWINT, which its
 * OICR handler counts; a software interrupt on any other vector latches no cause. */
START_TEST(swint_on_the_oicr_vector_latches_the_swint_cause)
{
    uint32_t trig = GLINT_DYN_CTL_SWINT_TRIG_M | GLINT_DYN_CTL_INTENA_MSK_M;

    irdma_dev_mmio_write(d, PFINT_OICR_CTL, PFINT_CTL_CAUSE_ENA_M | 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(1), trig);
    ck_assert_uint_eq(h->irqs->len, 1);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR) & PFINT_OICR_SWINT_M, 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(0), trig);
    ck_assert_uint_eq(h->irqs->len, 2);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 1), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR) & PFINT_OICR_SWINT_M, PFINT_OICR_SWINT_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR), 0);         /* read to clear */
    /* With the OICR cause disabled the vector is no OICR vector. */
    irdma_dev_mmio_write(d, PFINT_OICR_CTL, 0);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(0), trig);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR), 0);
}
END_TEST

START_TEST(itr_holds_a_cause_until_its_interval_has_passed)
{
    uint32_t ctl = PFINT_CTL_CAUSE_ENA_M | (0u << 11) | 4;     /* ITR 0, vector 4 */
    uint32_t enable = GLINT_DYN_CTL_INTENA_M | (3u << 3);      /* ITR_INDX none: ITRs kept */

    /* ice_buildreg_itr: ITR_INDX 0 with INTERVAL 25 sets ITR 0 to 50 us. */
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(4), GLINT_DYN_CTL_INTENA_M | (25u << 5));
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLINT_ITR(0, 4)), 25);
    intr_raise_ctl(d, ctl, "test");
    ck_assert_uint_eq(h->irqs->len, 1);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(4), enable);
    h->now_ns += 10000;
    intr_raise_ctl(d, ctl, "test");                             /* 10 us later: held */
    ck_assert_uint_eq(h->irqs->len, 1);
    fake_host_advance(h, d, h->now_ns + 40000);                 /* the 50 us are over */
    ck_assert_uint_eq(h->irqs->len, 2);
    /* Without an ITR index the cause is not moderated. */
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(4), enable);
    intr_raise_ctl(d, PFINT_CTL_CAUSE_ENA_M | (3u << 11) | 4, "test");
    ck_assert_uint_eq(h->irqs->len, 3);
}
END_TEST

START_TEST(pf_reset_clears_the_rings)
{
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, NULL), AQ_RC_OK);
    irdma_dev_mmio_write(d, PFGEN_CTRL, PFGEN_CTRL_PFSWR_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQLEN), 0);
}
END_TEST

Suite *aq_suite(void)
{
    Suite *s = suite_create("aq");
    TCase *tc = tcase_create("engine");

    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, get_version_completes_with_dd_cmp_and_advances_head);
    tcase_add_test(tc, completion_waits_for_the_modelled_delay);
    tcase_add_test(tc, ring_wraps_around);
    tcase_add_test(tc, unknown_opcode_is_esrch_with_err_flag);
    tcase_add_test(tc, missing_buffer_is_einval);
    tcase_add_test(tc, input_buffer_without_rd_is_einval);
    tcase_add_test(tc, large_buffer_without_lb_is_einval);
    tcase_add_test(tc, oversized_datalen_is_einval);
    tcase_add_test(tc, unbacked_buffer_address_is_efault);
    tcase_add_test(tc, unbacked_ring_sets_critical_error);
    tcase_add_test(tc, tail_beyond_ring_sets_critical_error);
    tcase_add_test(tc, disabled_queue_is_not_processed);
    tcase_add_test(tc, arq_event_is_written_and_interrupts);
    tcase_add_test(tc, arq_event_waits_for_a_posted_slot);
    tcase_add_test(tc, masked_vector_fires_when_reenabled);
    tcase_add_test(tc, reenabling_with_clearpba_keeps_a_latched_cause);
    tcase_add_test(tc, swint_fires_even_while_masked);
    tcase_add_test(tc, swint_on_the_oicr_vector_latches_the_swint_cause);
    tcase_add_test(tc, itr_holds_a_cause_until_its_interval_has_passed);
    tcase_add_test(tc, pf_reset_clears_the_rings);
    suite_add_tcase(s, tc);
    return s;
}
