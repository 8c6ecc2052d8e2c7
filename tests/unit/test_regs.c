/* test_regs.c - the register file mechanism: declaration, masks, handlers, arrays, misses, split
 * 40-bit counters. */
#include <check.h>
#include "fake_host.h"
#include "emu/core/regs.h"

#define SPLIT40_BASE    0x40000
#define SPLIT40_N       4

typedef struct TestBlk {
    unsigned reads, writes;
    unsigned last_idx;
    uint32_t last_val;
    uint64_t ctr[SPLIT40_N];   /* the split 40-bit register's counters */
} TestBlk;

static uint32_t blk_read(void *blk, const EmuReg *r, unsigned idx)
{
    TestBlk *b = blk;

    (void)r;
    b->reads++;
    b->last_idx = idx;
    return 0xabc00000u | idx;
}

static void blk_write(void *blk, const EmuReg *r, unsigned idx, uint32_t val)
{
    TestBlk *b = blk;

    (void)r;
    b->writes++;
    b->last_idx = idx;
    b->last_val = val;
}

static uint32_t split40_read(void *blk, const EmuReg *r, unsigned idx)
{
    TestBlk *b = blk;

    return emu_split40_read(r, idx, b->ctr[emu_split40_counter(r, idx)]);
}

static const EmuReg test_regs[] = {
    { .name = "PLAIN", .base = 0x1000, .reset = 0x11, .wmask = ~0u },
    { .name = "MASKED", .base = 0x1004, .reset = 0xf0000000, .wmask = 0x0000ffff },
    { .name = "ARR", .base = 0x2000, .count = 4, .stride = 4, .wmask = ~0u },
    { .name = "GRID", .base = 0x10000, .count = 3, .stride = 4, .count2 = 2, .stride2 = 0x2000,
      .wmask = ~0u },
    { .name = "HOOKED", .base = 0x3000, .count = 8, .stride = 8, .wmask = 0xff,
      .read = blk_read, .write = blk_write },
    EMU_REG_SPLIT40("SPLIT40L", SPLIT40_BASE, SPLIT40_N, split40_read),
};

static FakeHost *h;
static EmuRegFile *rf;
static TestBlk blk;

static void setup(void)
{
    static IrdmaHost host = { .ops = &fake_host_ops };

    h = fake_host_new(4096);
    host.opaque = h;
    rf = emu_regfile_new(&host);
    blk = (TestBlk) { 0 };
    emu_regfile_add(rf, test_regs, G_N_ELEMENTS(test_regs), &blk);
}

static void teardown(void)
{
    emu_regfile_free(rf);
    fake_host_free(h);
}

START_TEST(plain_register_stores_and_resets)
{
    ck_assert_uint_eq(emu_regfile_read(rf, 0x1000), 0x11);
    emu_regfile_write(rf, 0x1000, 0xdeadbeef);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x1000), 0xdeadbeef);
    emu_regfile_reset(rf);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x1000), 0x11);
}
END_TEST

START_TEST(write_mask_keeps_read_only_bits)
{
    emu_regfile_write(rf, 0x1004, 0x0fff1234);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x1004), 0xf0001234);
}
END_TEST

START_TEST(array_elements_are_independent)
{
    for (unsigned i = 0; i < 4; i++) {
        emu_regfile_write(rf, 0x2000 + 4 * i, 100 + i);
    }
    for (unsigned i = 0; i < 4; i++) {
        ck_assert_uint_eq(emu_regfile_read(rf, 0x2000 + 4 * i), 100 + i);
        ck_assert_uint_eq(emu_reg_get(rf, &test_regs[2], i), 100 + i);
    }
    /* One past the array is not declared. */
    ck_assert_uint_eq(emu_regfile_read(rf, 0x2010), 0);
}
END_TEST

START_TEST(two_dimensional_index_is_outer_times_count_plus_inner)
{
    emu_regfile_write(rf, 0x10000 + 0x2000 * 1 + 4 * 2, 0x55);
    ck_assert_uint_eq(emu_reg_get(rf, &test_regs[3], 1 * 3 + 2), 0x55);
    emu_reg_set(rf, &test_regs[3], 0 * 3 + 1, 0x66);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x10004), 0x66);
}
END_TEST

START_TEST(handlers_get_element_index_and_masked_value)
{
    ck_assert_uint_eq(emu_regfile_read(rf, 0x3000 + 8 * 5), 0xabc00005);
    ck_assert_uint_eq(blk.reads, 1);
    emu_regfile_write(rf, 0x3000 + 8 * 7, 0x12345678);
    ck_assert_uint_eq(blk.writes, 1);
    ck_assert_uint_eq(blk.last_idx, 7);
    ck_assert_uint_eq(blk.last_val, 0x78);
    /* The hole between strided elements is undeclared. */
    emu_regfile_write(rf, 0x3004, 1);
    ck_assert_uint_eq(blk.writes, 1);
}
END_TEST

START_TEST(unimplemented_offsets_read_zero_and_are_traced)
{
    ck_assert_uint_eq(emu_regfile_read(rf, 0x123450), 0);
    emu_regfile_write(rf, 0x123450, 7);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x123450), 0);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_reg_read_unimplemented: off=0x123450"), 2);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_reg_write_unimplemented: off=0x123450"), 1);
}
END_TEST

START_TEST(trace_events_are_enabled_one_at_a_time)
{
    /* The core asks the host per event: with only the read's event on, the write is dropped. */
    h->trace_one = true;
    h->trace_only = TR_ERR_REG_READ_UNIMPLEMENTED;
    emu_regfile_write(rf, 0x123450, 7);
    ck_assert_uint_eq(emu_regfile_read(rf, 0x123450), 0);
    ck_assert_uint_eq(h->traces->len, 1);
    ck_assert_uint_eq(fake_host_trace_count(h, "err_reg_read_unimplemented: off=0x123450"), 1);
}
END_TEST

START_TEST(any_guest_offset_is_safe)
{
    /* Past the BAR, unaligned, the last dword: none may crash. */
    ck_assert_uint_eq(emu_regfile_read(rf, EMU_REGFILE_SPAN), 0);
    ck_assert_uint_eq(emu_regfile_read(rf, 0xffffffffu), 0);
    emu_regfile_write(rf, 0xfffffffcu, 1);
    ck_assert_uint_eq(emu_regfile_read(rf, EMU_REGFILE_SPAN - 4), 0);
    emu_regfile_write(rf, 0x1001, 0x99);        /* unaligned hits the containing dword */
    ck_assert_uint_eq(emu_regfile_read(rf, 0x1000), 0x99);
}
END_TEST

START_TEST(split_40_bit_counter_reads_low_and_high_halves)
{
    const EmuReg *r = &test_regs[G_N_ELEMENTS(test_regs) - 1];

    blk.ctr[0] = 0x12345678ull;
    blk.ctr[2] = 0xab87654321ull;
    blk.ctr[3] = 0x7f00000001ull << 4;        /* past 40 bits: the counter wraps */
    /* Instance i: L at 8 * i, H 4 bytes above; H holds bits 39:32. */
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE), 0x12345678);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 4), 0);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * 2), 0x87654321);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * 2 + 4), 0xab);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * 3), 0x10);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * 3 + 4), 0xf0);
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * 1 + 4), 0);
    /* The element index of an H half names the same instance as its L half. */
    ck_assert(emu_split40_is(r));
    ck_assert(!emu_split40_is(&test_regs[3]));
    ck_assert_uint_eq(emu_split40_counter(r, 2), 2);
    ck_assert_uint_eq(emu_split40_counter(r, SPLIT40_N + 2), 2);
    ck_assert_uint_eq(emu_split40_read(r, SPLIT40_N + 2, EMU_SPLIT40_MASK), 0xff);
    /* Past the last instance nothing is declared. */
    ck_assert_uint_eq(emu_regfile_read(rf, SPLIT40_BASE + 8 * SPLIT40_N), 0);
}
END_TEST

Suite *regs_suite(void)
{
    Suite *s = suite_create("regs");
    TCase *tc = tcase_create("regfile");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, plain_register_stores_and_resets);
    tcase_add_test(tc, write_mask_keeps_read_only_bits);
    tcase_add_test(tc, array_elements_are_independent);
    tcase_add_test(tc, two_dimensional_index_is_outer_times_count_plus_inner);
    tcase_add_test(tc, handlers_get_element_index_and_masked_value);
    tcase_add_test(tc, unimplemented_offsets_read_zero_and_are_traced);
    tcase_add_test(tc, trace_events_are_enabled_one_at_a_time);
    tcase_add_test(tc, any_guest_offset_is_safe);
    tcase_add_test(tc, split_40_bit_counter_reads_low_and_high_halves);
    suite_add_tcase(s, tc);
    return s;
}
