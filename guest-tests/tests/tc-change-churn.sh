# TC changes while QPs are being created and destroyed. qp-churn creates RC QPs, takes each to RTS
# and destroys it, over and over, while rdma-stream carries verified traffic on 4 QP pairs and 14
# changes go through (3 ETS rounds and DSCP mode), each once the traffic has gone on after the last.
# irdma refuses new QPs while a change is pending (create EINVAL, RTR ENOMEM) and ice's netdev
# bounce after each change makes RTR unroutable (ENETUNREACH) for a moment; qp-churn counts those as
# refusals. Checks: qp-churn had no other error and destroyed every QP it created, some of them got
# to RTS during the changes and all of them do afterwards; the stream lost nothing; the device
# posted one suspend-complete AE per suspend (QPs destroyed while suspended included) and resumed at
# most as many; irdma and ice logged no error.
. /tests/lib.sh
gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
ifc=$(irdma_sim_netdev) || fail "no netdev on irdma-sim"
dcb_sw_mode "$ifc"
rm -f /tmp/churn-stop
rdma-stream irdma0 "$gid" --qps 4 --until-file /tmp/churn-stop > /tmp/churn-stream.out 2>&1 &
stream=$!
wait_for "grep -q '^rdma-stream: 4 qps running' /tmp/churn-stream.out" 30 ||
    { cat /tmp/churn-stream.out; fail "rdma-stream never got going"; }
before=$(suspend_counts) || fail "cannot read the suspend counts"
qp-churn irdma0 "$gid" --until-file /tmp/churn-stop > /tmp/churn.out 2>&1 &
churn=$!
TC_TRAFFIC=rdma-stream
tc_cycle "$ifc" 3
touch /tmp/churn-stop
wait "$churn"
rc=$?
wait "$stream"
rdma_stream_result /tmp/churn-stream.out 4 $?
cat /tmp/churn.out
set -- $(sed -n 's/^qp-churn: \([0-9]*\) loops, \([0-9]*\) created, \([0-9]*\) reached RTS, \([0-9]*\) destroyed, .* \([0-9]*\) failures$/\1 \2 \3 \4 \5/p' /tmp/churn.out)
[ "$rc" = 0 ] && [ "$5" = 0 ] || fail "qp-churn failed (exit $rc)"
[ "$2" = "$4" ] || fail "qp-churn created $2 QPs but destroyed $4"
[ "$3" -gt 0 ] || fail "no churned QP reached RTS during the changes"
after=$(suspend_counts) || fail "cannot read the suspend counts"
set -- $before $after
echo "$TC_CHANGES TC changes: device counted $(($4 - $1)) suspends, $(($5 - $2)) AEs," \
     "$(($6 - $3)) resumes"
[ $(($4 - $1)) -ge $((TC_CHANGES * 9)) ] && [ $(($5 - $2)) = $(($4 - $1)) ] &&
    [ $(($6 - $3)) -le $(($4 - $1)) ] || fail "suspend, AE and resume counts disagree"
# Once the changes are over, every QP is created and reaches RTS again.
qp-churn irdma0 "$gid" --seconds 2 > /tmp/churn-after.out 2>&1 || { cat /tmp/churn-after.out; fail "qp-churn after the changes failed"; }
cat /tmp/churn-after.out
grep -qE "^qp-churn: ([0-9]+) loops, \1 created, \1 reached RTS, \1 destroyed, refused: 0 create, 0 RTR, 0 failures$" /tmp/churn-after.out ||
    fail "after the changes not every QP reached RTS"
errs=$(irdma_error_lines; dmesg | grep -E "irdma|ice" | grep -iE "suspend|Failed to config TC|cqp")
[ -z "$errs" ] || fail "the drivers reported: $errs"
