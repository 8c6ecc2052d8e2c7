# modify-QP-to-SQD and back to RTS (guest-tests/rdma-sqd.c), on an idle QP and on one with 128
# SENDs queued behind an RNR-blocked first one. irdma's SQD waits for the device's
# QP_SUSPEND_COMPLETE AE; the device must hold the SQ's unstarted WQEs until RTS and finish the
# started ones first. Checks: both checks pass with every byte verified, the device counted a
# suspend and its AE for each SQD and no RESUME_QP (back to RTS is a MODIFY_QP), and irdma
# logged no suspend timeout or error.
. /tests/lib.sh
before=$(suspend_counts) || fail "cannot read the suspend counts"
rdma_sqd_checks
after=$(suspend_counts) || fail "cannot read the suspend counts"
set -- $before $after
[ $(($4 - $1)) = 2 ] && [ $(($5 - $2)) = 2 ] && [ $(($6 - $3)) = 0 ] ||
    fail "device counted $(($4 - $1)) suspends, $(($5 - $2)) AEs, $(($6 - $3)) resumes; want 2, 2, 0"
