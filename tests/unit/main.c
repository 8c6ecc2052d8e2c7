/* main.c - runs every unit-test suite of the device core with Check. */
#include <check.h>
#include <stdlib.h>

Suite *regs_suite(void);
Suite *event_suite(void);
Suite *device_suite(void);
Suite *aq_suite(void);
Suite *fw_general_suite(void);
Suite *fw_nvm_suite(void);
Suite *fw_sched_suite(void);
Suite *fw_pkg_suite(void);
Suite *fw_dcb_suite(void);
Suite *fw_link_suite(void);
Suite *fw_switch_suite(void);
Suite *cqp_suite(void);
Suite *hmc_suite(void);
Suite *qp_suite(void);
Suite *mr_suite(void);
Suite *ah_suite(void);
Suite *ltab_suite(void);
Suite *rocev2_suite(void);
Suite *transport_suite(void);
Suite *mcast_suite(void);
Suite *loopback_suite(void);
Suite *timing_suite(void);
Suite *fault_suite(void);
Suite *lan_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(regs_suite());
    int failed;

    srunner_add_suite(sr, event_suite());
    srunner_add_suite(sr, device_suite());
    srunner_add_suite(sr, aq_suite());
    srunner_add_suite(sr, fw_general_suite());
    srunner_add_suite(sr, fw_nvm_suite());
    srunner_add_suite(sr, fw_sched_suite());
    srunner_add_suite(sr, fw_pkg_suite());
    srunner_add_suite(sr, fw_dcb_suite());
    srunner_add_suite(sr, fw_link_suite());
    srunner_add_suite(sr, fw_switch_suite());
    srunner_add_suite(sr, cqp_suite());
    srunner_add_suite(sr, hmc_suite());
    srunner_add_suite(sr, qp_suite());
    srunner_add_suite(sr, mr_suite());
    srunner_add_suite(sr, ah_suite());
    srunner_add_suite(sr, ltab_suite());
    srunner_add_suite(sr, rocev2_suite());
    srunner_add_suite(sr, transport_suite());
    srunner_add_suite(sr, mcast_suite());
    srunner_add_suite(sr, loopback_suite());
    srunner_add_suite(sr, timing_suite());
    srunner_add_suite(sr, fault_suite());
    srunner_add_suite(sr, lan_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
