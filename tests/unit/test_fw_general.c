/* test_fw_general.c - AQ handlers of fw_general.c: good commands, and malformed ones answered with the
 * firmware's error codes. */
#include <check.h>
#include "aq_util.h"
#include "emu/fw.h"
#include "emu/le.h"

static FakeHost *h;
static IrdmaDev *d;

static void setup(void)
{
    h = fake_host_new(AQT_MEM_SIZE);
    d = fake_dev_new(h);
    aqt_init(h, d);
}

static void teardown(void)
{
    irdma_dev_free(d);
    fake_host_free(h);
}

Suite *fw_general_suite(void)
{
    Suite *s = suite_create("fw_general");
    TCase *tc = tcase_create("opcodes");

    tcase_add_checked_fixture(tc, setup, teardown);
    suite_add_tcase(s, tc);
    return s;
}
