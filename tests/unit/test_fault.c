/*
 * test_fault.c - fault plans (fault.c): the parser's messages name the line, rules fire on the
 * events they match with once / every / times / probability / after, CQP errors and dropped
 * AEs take effect, and the same plan and seed give the same fault log.
 */
#include <check.h>
#include <string.h>
#include "emu/fault.h"
#include "emu/cqp.h"
#include "emu/pe_defs.h"
#include "emu/e810_regs.h"
#include "emu/pe_regs.h"
#include "emu/qp.h"
#include "trt_util.h"

#define FT_CCQ_SIZE 256

static void ft_setup(void)
{
    cqpt_setup();
    cqpt_start(FT_CCQ_SIZE);
}

static void install(const char *text)
{
    g_autoptr(GError) err = NULL;
    FaultPlan *plan = fault_plan_parse(text, "test.plan", &err);

    ck_assert_msg(plan, "%s", err ? err->message : "?");
    fault_set_plan(d, plan);
}

static void expect_parse_error(const char *text, const char *want)
{
    g_autoptr(GError) err = NULL;

    ck_assert_ptr_null(fault_plan_parse(text, "test.plan", &err));
    ck_assert_msg(strstr(err->message, want), "'%s' does not say '%s'", err->message, want);
}

static uint16_t nop_maj(void)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };

    return cqpt_maj(cqpt_op(q));
}

static unsigned log_lines(void)
{
    unsigned n = 0;

    for (const char *p = fault_log(d); *p; p++) {
        n += *p == '\n';
    }
    return n;
}

START_TEST(bad_plans_are_refused_with_their_line)
{
    expect_parse_error("[plan]\nseed = 1\nthis is not ini\n", "test.plan:3: not a [group]");
    expect_parse_error("[rule a]\non = cqp NOP\naction = error 0x8029 1\nevry = 2\n",
                       "test.plan:4: [rule a] evry: unknown key");
    expect_parse_error("[rule a]\n\non = cqp FROB\naction = drop\n",
                       "test.plan:3: [rule a] on: 'FROB' is no CQP opcode");
    expect_parse_error("[rule a]\non = ae 0x900\naction = error 1 2\n",
                       "test.plan:3: [rule a] action: error applies to 'on = cqp");
    expect_parse_error("[rule a]\non = ae 0x900\naction = drop\nprobability = 1.5\n",
                       "test.plan:4: [rule a] probability: '1.5' is not a probability");
    expect_parse_error("[rule a]\non = ae 0x900\naction = drop\nafter = b\n",
                       "test.plan:4: [rule a] after: no rule 'b' before this one");
    expect_parse_error("[rules]\non = ae 0x900\n", "test.plan:1: [rules] unknown group");
    expect_parse_error("[rule a]\naction = drop\n", "test.plan:1: [rule a] a rule needs 'on'");
}
END_TEST

/* A CQP error once: that op completes with the plan's codes without running; the next runs. */
START_TEST(cqp_error_completes_the_op_with_the_plans_codes)
{
    install("[rule no-nop]\non = cqp nop\naction = error 0x8029 0x0004\nonce = true\n");
    ck_assert_uint_eq(nop_maj(), 0x8029);
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_uint_eq(log_lines(), 1);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " no-nop cqp 0x24 NOP error 0x8029 0x0004\n"));
    ck_assert_uint_eq(fake_host_trace_count(h, "fault_fired"), 1);
}
END_TEST

/* A dropped CQP completion: the op runs (the ARP entry is there) but neither CQPTAIL nor the
 * CCQ says so; the next op completes in the CCQ slot the dropped one would have used. */
START_TEST(dropped_cqp_completion_is_never_written)
{
    uint64_t q[8] = { 0 }, mac = 0;
    unsigned slot;

    install("[rule lost]\non = cqp MANAGE_ARP\naction = drop\nonce = true\n");
    q[2] = pe_prep(CQPWQE_ARP_MAC, 0x0200000000aaull);
    q[3] = cqpt_hdr(CQP_OP_MANAGE_ARP) | pe_prep(CQPWQE_ARP_INDEX, 5) | CQPWQE_ARP_ENTRYVALID;
    slot = cqpt_post(q);
    cqpt_ring();
    ck_assert_uint_eq(pe_get(irdma_dev_mmio_read(d, PFPE_CQPTAIL), PFPE_CQPTAIL_WQTAIL_M), slot);
    ck_assert(cqp_arp_lookup(d, 5, &mac));
    ck_assert_uint_eq(mac, 0x0200000000aaull);
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " lost cqp 0x0f MANAGE_ARP drop\n"));
}
END_TEST

/* An OICR cause after the op: the NOP completes as usual, then PFINT_OICR has the PE critical
 * error latched with the plan's GLPE_CRITERR (what ice hands irdma as IIDC_EVENT_CRIT_ERR). */
START_TEST(oicr_cause_follows_the_op)
{
    install("[rule crit]\non = cqp NOP\naction = oicr pe-critical 0x1234\nonce = true\n");
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLPE_CRITERR), 0x1234);
    ck_assert(irdma_dev_mmio_read(d, PFINT_OICR) & PFINT_OICR_PE_CRITERR_M);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " crit cqp 0x24 NOP oicr 0x10000000 criterr "
                                 "0x00001234\n"));
    expect_parse_error("[rule a]\non = cqp NOP\naction = oicr ecc\n",
                       "test.plan:3: [rule a] action: 'ecc' is no OICR cause");
    expect_parse_error("[rule a]\non = cqp NOP\naction = oicr hmc-error 5\n",
                       "test.plan:3: [rule a] action: only pe-critical takes a value");
}
END_TEST

/* every 3, at most 2 times; a second rule only after the first has fired. */
START_TEST(every_times_and_after_count_matching_events)
{
    uint16_t maj[10];

    install("[rule third]\non = cqp NOP\naction = error 0x8001 0\nevery = 3\ntimes = 2\n"
            "[rule later]\non = cqp NOP\naction = error 0x8002 0\nafter = third\nonce = true\n");
    for (unsigned i = 0; i < G_N_ELEMENTS(maj); i++) {
        maj[i] = nop_maj();
    }
    /* third: the 3rd and 6th NOP; later: the first NOP after that which third lets through. */
    ck_assert_uint_eq(maj[0], 0);
    ck_assert_uint_eq(maj[1], 0);
    ck_assert_uint_eq(maj[2], 0x8001);
    ck_assert_uint_eq(maj[3], 0x8002);
    ck_assert_uint_eq(maj[4], 0);
    ck_assert_uint_eq(maj[5], 0x8001);
    for (unsigned i = 6; i < G_N_ELEMENTS(maj); i++) {
        ck_assert_uint_eq(maj[i], 0);
    }
    ck_assert_uint_eq(log_lines(), 3);
}
END_TEST

/* probability with a seed: the same plan and seed fire on the same events (replay), another
 * seed on others; about half fire. */
static uint64_t fired_pattern(unsigned seed)
{
    g_autofree char *plan = g_strdup_printf("[plan]\nseed = %u\n[rule coin]\non = cqp NOP\n"
                                            "action = error 0x8001 0\nprobability = 0.5\n", seed);
    uint64_t bits = 0;

    install(plan);
    for (unsigned i = 0; i < 64; i++) {
        bits |= (uint64_t)(nop_maj() != 0) << i;
    }
    return bits;
}

START_TEST(same_plan_and_seed_fire_the_same_way)
{
    uint64_t a = fired_pattern(7), b = fired_pattern(7), c = fired_pattern(8);

    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, c);
    ck_assert_uint_ge(__builtin_popcountll(a), 16);
    ck_assert_uint_le(__builtin_popcountll(a), 48);
}
END_TEST

/* A dropped AE: the SUSPEND_QP completes, its suspend-complete AE never reaches the AEQ (the
 * driver's timeout path); the next one does. */
START_TEST(dropped_ae_never_reaches_the_aeq)
{
    uint64_t q[8] = { 0 };

    cqpt_teardown();
    trt_start();
    connect_default();
    install("[rule lose-suspend]\non = ae 0x900 qp=3\naction = drop\nonce = true\n");
    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, qa.id);
    cqp_ok(q);
    ck_assert(!(ld64(h->mem + CQPT_AEQ + 8) & AEQE_VALID));
    cqp_ok(q);
    ck_assert(ld64(h->mem + CQPT_AEQ + 8) & AEQE_VALID);
    ck_assert_uint_eq(pe_get(ld64(h->mem + CQPT_AEQ + 8), AEQE_AECODE), AE_QP_SUSPEND_COMPLETE);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " lose-suspend ae 0x900 qp=3 drop\n"));
    ck_assert_uint_eq(log_lines(), 1);
}
END_TEST

Suite *fault_suite(void)
{
    Suite *s = suite_create("fault");
    TCase *tc = tcase_create("plan");

    tcase_add_checked_fixture(tc, ft_setup, cqpt_teardown);
    tcase_add_test(tc, bad_plans_are_refused_with_their_line);
    tcase_add_test(tc, cqp_error_completes_the_op_with_the_plans_codes);
    tcase_add_test(tc, dropped_cqp_completion_is_never_written);
    tcase_add_test(tc, oicr_cause_follows_the_op);
    tcase_add_test(tc, every_times_and_after_count_matching_events);
    tcase_add_test(tc, same_plan_and_seed_fire_the_same_way);
    tcase_add_test(tc, dropped_ae_never_reaches_the_aeq);
    suite_add_tcase(s, tc);
    return s;
}
