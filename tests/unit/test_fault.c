/*
 * test_fault.c - fault plans (fault.c): the parser's messages name the line, rules fire on the
 * events they match with once / every / times / probability / after / when, every action
 * takes effect at its hook (CQP, AQ, AE, SQ WQE, register, DMA, interrupt), and the same plan
 * and seed give the same fault log.
 */
#include <check.h>
#include <string.h>
#include "emu/core/fault.h"
#include "emu/rdma/cqp.h"
#include "emu/rdma/pe_defs.h"
#include "emu/core/e810_regs.h"
#include "emu/rdma/pe_regs.h"
#include "emu/rdma/qp.h"
#include "trt_util.h"
#include "aq_util.h"

#define FT_CCQ_SIZE 256

static void ft_setup(void)
{
    cqpt_setup();
    cqpt_start(FT_CCQ_SIZE);
}

static void install(const char *text)
{
    g_autoptr(GError) err = NULL;
    FaultPlan *plan = fault_plan_parse(&irdma_dev_fault_vocab, text, "test.plan", &err);

    ck_assert_msg(plan, "%s", err ? err->message : "?");
    fault_set_plan(d, plan);
}

static void expect_parse_error(const char *text, const char *want)
{
    g_autoptr(GError) err = NULL;

    ck_assert_ptr_null(fault_plan_parse(&irdma_dev_fault_vocab, text, "test.plan", &err));
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
                       "test.plan:3: [rule a] action: error does not apply to 'on = ae'");
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
    ck_assert_uint_eq(cqpt_tail(), slot);
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
                       "test.plan:3: [rule a] action: not 'oicr CAUSE' with a cause of");
    expect_parse_error("[rule a]\non = cqp NOP\naction = oicr pe-push 5\n",
                       "test.plan:3: [rule a] action: only pe-critical and hmc-error take a "
                       "value");
}
END_TEST

/* An HMC error latches the plan's PFHMC_ERRORINFO (irdma 7.x prints it with ERRORDATA). */
START_TEST(hmc_error_latches_its_errorinfo)
{
    install("[rule hmc]\non = cqp NOP\naction = oicr hmc-error 0x80000301\nonce = true\n");
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFHMC_ERRORINFO), 0);
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFHMC_ERRORINFO), 0x80000301);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFHMC_ERRORDATA), 0);
    ck_assert(irdma_dev_mmio_read(d, PFINT_OICR) & PFINT_OICR_HMC_ERR_M);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " hmc cqp 0x24 NOP oicr 0x04000000 errorinfo "
                                 "0x80000301\n"));
    expect_parse_error("[rule a]\non = cqp NOP\naction = oicr hmc-error x\n",
                       "test.plan:3: [rule a] action: 'x' is not a PFHMC_ERRORINFO value");
}
END_TEST

/* What the parser refuses of the events, actions and states beyond CQP and AE. */
START_TEST(bad_events_actions_and_states_are_refused)
{
    expect_parse_error("[rule a]\non = cqp NOP qp=3\naction = drop\n",
                       "test.plan:2: [rule a] on: 'qp=3': NOP names no QP or CQ");
    expect_parse_error("[rule a]\non = cqp CREATE_CQ qp=3\naction = drop\n",
                       "on: 'qp=3': CREATE_CQ names a CQ (cq=N)");
    expect_parse_error("[rule a]\non = reg read 0x13\naction = remove\n",
                       "on: '0x13' is no BAR0 register offset");
    expect_parse_error("[rule a]\non = wqe FROB\naction = raise-ae 0x20e\n",
                       "on: 'FROB' is no SQ WQE opcode");
    expect_parse_error("[rule a]\non = irq 4096\naction = drop\n", "on: '4096' is no MSI-X vector");
    expect_parse_error("[rule a]\non = dma sideways\naction = fail\n", "on: 'dma sideways' is none of");
    expect_parse_error("[rule a]\non = irq any\naction = oicr hmc-error\n",
                       "action: oicr does not apply to 'on = irq'");
    expect_parse_error("[rule a]\non = dma read\naction = drop\n",
                       "action: drop does not apply to 'on = dma read'");
    expect_parse_error("[rule a]\non = cqp NOP\naction = raise-ae 0x20e\n",
                       "action: raise-ae needs a QP: NOP names none");
    expect_parse_error("[rule a]\non = ae 0x900\naction = corrupt value 1\n",
                       "action: 'corrupt value 1': field value is not one of this event's");
    expect_parse_error("[rule a]\non = ae 0x900\naction = corrupt code 0x1000\n",
                       "action: 'corrupt code 0x1000': code is 0 to 0xfff");
    expect_parse_error("[rule a]\non = aq 0x0001\naction = error 0 0\n",
                       "action: 'error 0 0' is not 'error RETVAL'");
    expect_parse_error("[rule a]\non = irq 3\naction = delay 0\n",
                       "action: 'delay 0' is not 'delay CYCLES'");
    expect_parse_error("[rule a]\non = irq 3\naction = drop now\n", "drop takes nothing after it");
    expect_parse_error("[rule a]\non = irq 3\naction = drop\nwhen = armed\n",
                       "test.plan:4: [rule a] when: no rule enters state 'armed'");
    expect_parse_error("[rule a]\non = irq 3\naction = drop\nstate = a b\n",
                       "state: 'a b' is no state name");
}
END_TEST

/* A state machine: the first NOP only moves the plan to "armed"; a rule waiting for "armed"
 * then fails the next NOP and moves it on, so a third passes. */
START_TEST(states_chain_rules)
{
    install("[rule arm]\non = cqp NOP\naction = none\nstate = armed\nonce = true\n"
            "[rule hit]\non = cqp NOP\naction = error 0x8003 0\nwhen = armed\nstate = done\n");
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_uint_eq(nop_maj(), 0x8003);
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " arm cqp 0x24 NOP none -> armed\n"));
    ck_assert_ptr_nonnull(strstr(fault_log(d), " hit cqp 0x24 NOP error 0x8003 0x0000 -> done\n"));
    ck_assert_uint_eq(log_lines(), 2);
}
END_TEST

/* A delayed CQP WQE: nothing completes until its delay (800 cycles = 1 us at 800 MHz) has
 * passed; the WQE behind it waits too (the engine is in order), then both complete. */
START_TEST(delayed_cqp_wqe_holds_the_engine)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };
    unsigned first;

    install("[rule slow]\non = cqp NOP\naction = delay 800\nonce = true\n");
    first = cqpt_post(q);
    cqpt_post(q);
    cqpt_ring();
    ck_assert_uint_eq(cqpt_tail(), first);
    fake_host_advance(h, d, h->now_ns + 999);
    ck_assert_uint_eq(cqpt_tail(), first);
    fake_host_advance(h, d, h->now_ns + 1);
    ck_assert_uint_eq(cqpt_tail(), first + 2);
    ck_assert_uint_eq(cqpt_maj(cqpt_ccqe(first)), 0);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " slow cqp 0x24 NOP delay 800\n"));
}
END_TEST

/* A failed DMA read: the next one is the CQP's WQE fetch, which completes as for an unbacked
 * address. */
START_TEST(failed_dma_read_is_an_unreachable_address)
{
    install("[rule lost-read]\non = dma read\naction = fail\nonce = true\n");
    ck_assert_uint_eq(nop_maj(), CQP_MAJ_ERROR);
    ck_assert_uint_eq(nop_maj(), 0);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " lost-read dma read fail\n"));
}
END_TEST

/* Surprise removal at a CQP op: every BAR read is all-ones, the op's completion never arrives
 * (its DMA writes go nowhere); a new plan puts the device back. */
START_TEST(removed_device_reads_all_ones_until_the_plan_goes)
{
    uint64_t q[8] = { [3] = cqpt_hdr(CQP_OP_NOP) };
    unsigned slot;

    install("[rule yank]\non = cqp NOP\naction = remove\n");
    slot = cqpt_post(q);
    cqpt_ring();
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFPE_CQPTAIL), FAULT_REMOVED_READ);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_RSTAT), FAULT_REMOVED_READ);
    ck_assert(!(ld64(cqpt_ccqe(slot) + CQE_HDR) & CQE_VALID));
    fault_set_plan(d, NULL);
    ck_assert_uint_eq(cqpt_tail(), slot + 1);
}
END_TEST

/* The guest tests' plans (guest-tests/faults) all parse: a typo there fails here, not in a
 * guest boot. */
START_TEST(every_guest_test_plan_parses)
{
    g_autoptr(GDir) dir = g_dir_open(GUEST_FAULT_PLANS, 0, NULL);
    const char *name;
    unsigned n = 0;

    ck_assert_ptr_nonnull(dir);
    while ((name = g_dir_read_name(dir))) {
        g_autofree char *path = g_build_filename(GUEST_FAULT_PLANS, name, NULL);
        g_autoptr(GError) err = NULL;
        FaultPlan *plan;

        if (!g_str_has_suffix(name, ".plan")) {
            continue;
        }
        plan = fault_plan_load(&irdma_dev_fault_vocab, path, &err);
        ck_assert_msg(plan, "%s", err ? err->message : path);
        fault_plan_free(plan);
        n++;
    }
    ck_assert_uint_ge(n, 10);
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

/* QP-level actions, on the transport fixture: QPs A and B connected in RTS. */
static void qp_setup(void)
{
    trt_start();
    connect_default();
}

static void suspend_a(void)
{
    uint64_t q[8] = { 0 };

    q[3] = cqpt_hdr(CQP_OP_SUSPEND_QP) | pe_prep(CQPWQE_QP_ID, qa.id);
    cqp_ok(q);
}

/* duplicate, delay and corrupt of an AE: twice; not yet, then once after 1 us; with the code
 * the plan gives. */
START_TEST(ae_duplicated_delayed_and_corrupted)
{
    g_autofree char *plan = g_strdup_printf(
        "[rule twice]\non = ae 0x900 qp=%u\naction = duplicate\nonce = true\n"
        "[rule late]\non = ae 0x900\naction = delay 800\nafter = twice\nonce = true\n"
        "[rule garbled]\non = ae 0x900\naction = corrupt code 0x50a\nafter = late\nonce = true\n",
        qa.id);

    install(plan);
    suspend_a();
    expect_ae(&qa, AE_QP_SUSPEND_COMPLETE, AE_SOURCE_RSVD);
    expect_ae(&qa, AE_QP_SUSPEND_COMPLETE, AE_SOURCE_RSVD);
    expect_no_ae();
    suspend_a();
    expect_no_ae();
    fake_host_advance(h, d, h->now_ns + 1000);
    expect_ae(&qa, AE_QP_SUSPEND_COMPLETE, AE_SOURCE_RSVD);
    suspend_a();
    expect_ae(&qa, AE_LLP_TOO_MANY_RETRIES, AE_SOURCE_RSVD);
    expect_no_ae();
    ck_assert_uint_eq(log_lines(), 3);
}
END_TEST

/* raise-ae on a CQP op of a QP (matched by its id): after the op's own AE; on an SQ WQE (of
 * B): the WQE is refused as a bad one is, the QP stops with that AE from the SQ. */
START_TEST(raise_ae_on_a_qp_op_and_on_a_wqe)
{
    g_autofree char *plan = g_strdup_printf(
        "[rule on-suspend]\non = cqp SUSPEND_QP qp=%u\naction = raise-ae 0x20e\nonce = true\n"
        "[rule on-write]\non = wqe RDMA_WRITE qp=%u\naction = raise-ae 0x20a\n", qa.id, qb.id);

    install(plan);
    suspend_a();
    expect_ae(&qa, AE_QP_SUSPEND_COMPLETE, AE_SOURCE_RSVD);
    expect_ae(&qa, AE_IB_REMOTE_OP_ERROR, AE_SOURCE_RSVD);
    post_sq(&qb, (TWqe) { .op = SQ_OP_RDMA_WRITE, .laddr = TRT_SRC, .len = 64 });
    ring(&qb);
    settle();
    expect_ae(&qb, AE_WQE_UNEXPECTED_OPCODE, AE_SOURCE_SQ);
    expect_no_ae();
    ck_assert_uint_eq(qp_lookup(d, qb.id)->state, QP_STATE_ERROR);
    ck_assert_uint_eq(log_lines(), 2);
}
END_TEST

/* The host-side hooks, on the admin-queue fixture: AQ commands, registers, interrupts. */

/* An AQ error: the command answers with the plan's return code and is not run; a delayed one
 * is answered only after its delay (1.6 M cycles: 2 ms), the next ones after it. */
START_TEST(aq_error_and_delay)
{
    AqtResp r;

    install("[rule busy]\non = aq 0x0001\naction = error 12\nonce = true\n"
            "[rule slow]\non = aq 0x0001\naction = delay 1600000\nafter = busy\nonce = true\n");
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r), 12);
    ck_assert(r.flags & AQ_FLAG_ERR);
    aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r);       /* advances 1 ms */
    ck_assert(!(r.flags & AQ_FLAG_DD));
    fake_host_advance(h, d, h->now_ns + 1000000);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.flags & (AQ_FLAG_DD | AQ_FLAG_ERR), AQ_FLAG_DD);
    ck_assert_uint_eq(log_lines(), 2);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " busy aq 0x0001 error 0x0c\n"));
}
END_TEST

/* delay until-next: past its delay (800 cycles: 1 us) the command waits on for the driver's
 * next one, as long as that takes; the next one then finds both answered. Only on 'aq'. */
START_TEST(aq_delay_until_the_next_command)
{
    AqtResp r;

    install("[rule late]\non = aq 0x0001\naction = delay 800 until-next\nonce = true\n");
    aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r);       /* advances 1 ms */
    ck_assert(!(r.flags & AQ_FLAG_DD));
    fake_host_advance(h, d, h->now_ns + 10000000000ull);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 0);
    ck_assert_uint_eq(aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r), AQ_RC_OK);
    ck_assert_uint_eq(r.flags & (AQ_FLAG_DD | AQ_FLAG_ERR), AQ_FLAG_DD);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PF_FW_ATQH), 2);
    ck_assert_ptr_nonnull(strstr(fault_log(d), " late aq 0x0001 delay 800 until-next\n"));
    expect_parse_error("[rule a]\non = cqp NOP\naction = delay 800 until-next\n",
                       "only on 'on = aq'");
    expect_parse_error("[rule a]\non = aq 0x0001\naction = delay 800 later\n",
                       "only 'until-next'");
}
END_TEST

/* A register read corrupted and a register write dropped, each once. */
START_TEST(register_read_corrupted_and_write_dropped)
{
    g_autofree char *plan = g_strdup_printf(
        "[rule lie]\non = reg read 0x%x\naction = corrupt value 0xdeadbeef\nonce = true\n"
        "[rule deaf]\non = reg write 0x%x\naction = drop\nonce = true\n",
        PFINT_OICR_ENA, PFINT_OICR_ENA);

    install(plan);
    irdma_dev_mmio_write(d, PFINT_OICR_ENA, PFINT_OICR_GRST_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), 0xdeadbeef);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), 0);
    irdma_dev_mmio_write(d, PFINT_OICR_ENA, PFINT_OICR_GRST_M);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), PFINT_OICR_GRST_M);
}
END_TEST

static void swint(unsigned vector)
{
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(vector), GLINT_DYN_CTL_SWINT_TRIG_M |
                                                   GLINT_DYN_CTL_INTENA_MSK_M);
}

/* Interrupts dropped, duplicated, delayed (800 cycles: 1 us), each once, on vector 9 only. */
START_TEST(interrupts_dropped_duplicated_and_delayed)
{
    install("[rule lost]\non = irq 9\naction = drop\nonce = true\n"
            "[rule twice]\non = irq 9\naction = duplicate\nafter = lost\nonce = true\n"
            "[rule late]\non = irq 9\naction = delay 800\nafter = twice\nonce = true\n");
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 0);
    swint(3);
    ck_assert_uint_eq(h->irqs->len, 1);
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 3);
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 3);
    fake_host_advance(h, d, h->now_ns + 1000);
    ck_assert_uint_eq(h->irqs->len, 4);
    ck_assert_uint_eq(g_array_index(h->irqs, unsigned, 3), 9);
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 5);
}
END_TEST

/* Removal at the first read of any register: that read and all after it are all-ones, no
 * interrupt gets out, writes (the ATQ doorbell) are lost; a system reset brings the
 * device back (the plan stays, its rule has fired). */
START_TEST(surprise_removal_silences_the_device)
{
    AqtResp r;

    install("[rule yank]\non = reg read any\naction = remove\nonce = true\n");
    ck_assert_uint_eq(irdma_dev_mmio_read(d, GLGEN_RSTAT), FAULT_REMOVED_READ);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), FAULT_REMOVED_READ);
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 0);
    aqt_send(h, d, AQC_GET_VER, 0, NULL, NULL, 0, &r);
    ck_assert(!(r.flags & AQ_FLAG_DD));
    irdma_dev_reset(d);
    ck_assert_uint_eq(irdma_dev_mmio_read(d, PFINT_OICR_ENA), 0);
    swint(9);
    ck_assert_uint_eq(h->irqs->len, 1);
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
    tcase_add_test(tc, hmc_error_latches_its_errorinfo);
    tcase_add_test(tc, every_times_and_after_count_matching_events);
    tcase_add_test(tc, same_plan_and_seed_fire_the_same_way);
    tcase_add_test(tc, dropped_ae_never_reaches_the_aeq);
    tcase_add_test(tc, bad_events_actions_and_states_are_refused);
    tcase_add_test(tc, every_guest_test_plan_parses);
    tcase_add_test(tc, states_chain_rules);
    tcase_add_test(tc, delayed_cqp_wqe_holds_the_engine);
    tcase_add_test(tc, failed_dma_read_is_an_unreachable_address);
    tcase_add_test(tc, removed_device_reads_all_ones_until_the_plan_goes);
    suite_add_tcase(s, tc);

    tc = tcase_create("qp");
    tcase_add_checked_fixture(tc, qp_setup, cqpt_teardown);
    tcase_add_test(tc, ae_duplicated_delayed_and_corrupted);
    tcase_add_test(tc, raise_ae_on_a_qp_op_and_on_a_wqe);
    suite_add_tcase(s, tc);

    tc = tcase_create("host");
    tcase_add_checked_fixture(tc, aqt_setup, aqt_teardown);
    tcase_add_test(tc, aq_error_and_delay);
    tcase_add_test(tc, aq_delay_until_the_next_command);
    tcase_add_test(tc, register_read_corrupted_and_write_dropped);
    tcase_add_test(tc, interrupts_dropped_duplicated_and_delayed);
    tcase_add_test(tc, surprise_removal_silences_the_device);
    suite_add_tcase(s, tc);
    return s;
}
