# Verbs traffic on irdma0 in one guest, every packet through the device's RoCEv2 engine (internal
# loopback to its own MAC): RC and UD ping-pong with the byte counts they report, perftest
# write/read/send bandwidth with the iterations and a positive figure, and rping over RDMA CM
# (QP1 MADs) with its payload verification on. irdma reports nothing abnormal meanwhile.
. /tests/lib.sh
idx=$(rdma_dev_up irdma0)
me=$(rdma_dev_ip irdma0)

# ibv_{rc,ud}_pingpong: both sides must report the bytes of every iteration (-c checks the data).
pingpong() {
    tool=$1 size=$2
    $tool -d irdma0 -g "$idx" -n 20 -s "$size" -c > /tmp/pp-server.out 2>&1 &
    sleep 1
    timeout 60 $tool -d irdma0 -g "$idx" -n 20 -s "$size" -c "$me" > /tmp/pp-client.out 2>&1 ||
        fail "$tool client failed: $(cat /tmp/pp-client.out)"
    wait $! || fail "$tool server failed: $(cat /tmp/pp-server.out)"
    bytes=$((2 * 20 * size))
    grep -q "^$bytes bytes in" /tmp/pp-client.out || fail "$tool client: $(cat /tmp/pp-client.out)"
    grep -q "^$bytes bytes in" /tmp/pp-server.out || fail "$tool server: $(cat /tmp/pp-server.out)"
}
pingpong ibv_rc_pingpong 4096
pingpong ibv_ud_pingpong 1024

# perftest: the result line must show the iterations asked for and a positive average.
for t in ib_write_bw ib_read_bw ib_send_bw; do
    $t -d irdma0 -x "$idx" -s 65536 -n 200 -F > /tmp/pt-server.out 2>&1 &
    sleep 2
    timeout 120 $t -d irdma0 -x "$idx" -s 65536 -n 200 -F "$me" > /tmp/pt-client.out 2>&1 ||
        fail "$t client failed: $(tail -5 /tmp/pt-client.out)"
    wait $! || fail "$t server failed: $(tail -5 /tmp/pt-server.out)"
    line=$(awk '$1 == 65536 && $2 == 200' /tmp/pt-client.out)
    [ -n "$line" ] || fail "$t: no result line: $(tail -5 /tmp/pt-client.out)"
    echo "$t: $line"
    echo "$line" | awk '{ exit !($4 > 0) }' || fail "$t: average bandwidth not positive: $line"
done

# rping: connection through RDMA CM, 10 verified ping-pongs of RDMA READ/WRITE and SEND.
rping -s -a "$me" -C 10 > /tmp/rping-server.out 2>&1 &
sleep 1
timeout 60 rping -c -a "$me" -C 10 -V -v > /tmp/rping-client.out 2>&1 ||
    fail "rping client failed: $(tail -5 /tmp/rping-client.out)"
wait $! || fail "rping server failed: $(tail -5 /tmp/rping-server.out)"
[ "$(grep -c '^ping data: rdma-ping-' /tmp/rping-client.out)" = 10 ] ||
    fail "rping: $(grep -c '^ping data' /tmp/rping-client.out) of 10 pings: $(tail -3 /tmp/rping-client.out)"

errs=$(irdma_error_lines; dmesg | grep -E "irdma" | grep -i "abnormal ae")
[ -z "$errs" ] || fail "irdma reported: $errs"
