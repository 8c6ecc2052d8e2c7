# modify-QP-to-SQD and back to RTS (guest-tests/rdma-sqd.c), on an idle QP and on one with 128
# SENDs queued behind an RNR-blocked first one. irdma's SQD waits for the device's
# QP_SUSPEND_COMPLETE AE; the device must hold the SQ's unstarted WQEs until RTS and finish the
# started ones first. Checks: both checks pass with every byte verified, the device counted a
# suspend and its AE for each SQD and no RESUME_QP (back to RTS is a MODIFY_QP), and irdma
# logged no suspend timeout or error.
. /tests/lib.sh
sqd_round_trip
