/* test_regs.c - the register file mechanism: declaration, masks, handlers, arrays, misses. */
#include <check.h>
#include "fake_host.h"
#include "emu/core/regs.h"

typedef struct TestBlk {
    unsigned reads, writes;
    unsigned last_idx;
    uint32_t last_val;
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

static const EmuReg test_regs[] = {
    { .name = "PLAIN", .base = 0x1000, .reset = 0x11, .wmask = ~0u },
    { .name = "MASKED", .base = 0x1004, .reset = 0xf0000000, .wmask = 0x0000ffff },
    { .name = "ARR", .base = 0x2000, .count = 4, .stride = 4, .wmask = ~0u },
    { .name = "GRID", .base = 0x10000, .count = 3, .stride = 4, .count2 = 2, .stride2 = 0x2000,
      .wmask = ~0u },
    { .name = "HOOKED", .base = 0x3000, .count = 8, .stride = 8, .wmask = 0xff,
      .read = blk_read, .write = blk_write },
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
    suite_add_tcase(s, tc);
    return s;
}
