# The demo, step 3 (scripts/demo.py): modify-QP-to-SQD and back to RTS (guest-tests/rdma-sqd.c),
# on an idle QP and on one with SENDs queued behind an RNR-blocked first one: irdma's SQD waits
# for the device's AE 0x0900, the device holds the unstarted WQEs until RTS. Checks: both pass
# with every byte verified, the device counted a suspend and its AE per SQD and no RESUME_QP
# (back to RTS is a MODIFY_QP), irdma logged no timeout or error.
. /tests/lib.sh
sqd_round_trip
echo "SQD round trip done: 2 QPs to SQD and back to RTS; device: 2 suspends, 2 AE 0x0900, 0 resumes"
