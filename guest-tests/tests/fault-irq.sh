# Fault class "interrupt duplicated or late" (docs/faults.md): with plan irq-doubled-late, of
# the next 200 MSI-X messages every second one is sent twice and the others 1 ms late. rping
# waits for its completions through a completion channel, so every CQ event is an interrupt.
# Checks: 500 verified pings (-V) all go through, both rules fired their 100 times, irdma and
# ice report nothing, no oops.
. /tests/lib.sh
rdma_dev_up irdma0 > /dev/null
ip=$(rdma_dev_ip irdma0) || fail "no address for irdma0"
mark=$(dmesg | wc -l)
fault_plan irq-doubled-late
# rping's errors go to stderr, unbuffered, ahead of its buffered ping lines: kept apart, so a
# failure shows its reason rather than the last pings.
rping -s -a "$ip" -C 500 -V > /tmp/fault-irq.server 2> /tmp/fault-irq.server.err &
srv=$!
wait_for "rdma resource show cm_id | grep -q 'state LISTEN.*$ip:7174'" 20 || fail "rping server never listened"
rping -c -a "$ip" -C 500 -V -v > /tmp/fault-irq.client 2> /tmp/fault-irq.client.err ||
    fail "rping failed after $(grep -c '^ping data' /tmp/fault-irq.client) pings: $(tail -3 /tmp/fault-irq.client.err)"
wait "$srv" || fail "rping server failed: $(tail -3 /tmp/fault-irq.server.err)"
[ "$(grep -c '^ping data' /tmp/fault-irq.client)" = 500 ] ||
    fail "$(grep -c '^ping data' /tmp/fault-irq.client) of 500 pings"
grep -qiE "mismatch|error|fail" /tmp/fault-irq.client /tmp/fault-irq.client.err /tmp/fault-irq.server \
    /tmp/fault-irq.server.err && fail "rping reported an error"
expect_faults_logged 'twice irq [0-9]* duplicate' 100
expect_faults_logged 'late irq [0-9]* delay 800000' 100
errs=$(dmesg | tail -n +$((mark + 1)) | grep -E "irdma|ice" | grep -iE "fail|error|unable|timeout")
[ -z "$errs" ] || fail "the drivers reported: $errs"
fault_test_done
echo "200 interrupts doubled or 1 ms late: 500 verified pings went through"
