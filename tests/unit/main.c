/* main.c - runs every unit-test suite of the device core with Check. */
#include <check.h>
#include <stdlib.h>

Suite *regs_suite(void);
Suite *event_suite(void);
Suite *device_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(regs_suite());
    int failed;

    srunner_add_suite(sr, event_suite());
    srunner_add_suite(sr, device_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
