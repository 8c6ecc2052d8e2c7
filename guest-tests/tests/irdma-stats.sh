# GATHER_STATS in the guest: irdma's hardware counters (`rdma statistic show link irdma0/1`,
# each read a GATHER_STATS of the function's counters) move with the RDMA traffic. ib_write_bw,
# ib_send_bw and ib_read_bw, N messages of S bytes each, server and client on the device's own
# address: every packet is sent and received by this function (internal loopback). Each run
# must move Out/In RdmaWrites, RdmaSends or RdmaReads by at least N, ip4Out/InOctets by at least
# N x S, ip4Out/InPkts and TxUDP/RxUDP by at least N x S / 4096 (packets of the largest path
# MTU); no frame is lost or dropped in loopback, so In and Out move alike and ip4InDiscards not
# at all; and nothing is counted as IPv6.
. /tests/lib.sh
dev=irdma0
size=16384
iters=100
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
ip=$(rdma_dev_ip "$dev") || fail "no address for $dev"
rdma statistic show link "$dev/1" || fail "rdma statistic failed"
counters="ip4OutPkts ip4InPkts ip4OutOctets ip4InOctets TxUDP RxUDP OutRdmaWrites InRdmaWrites
OutRdmaSends InRdmaSends OutRdmaReads InRdmaReads ip4InDiscards ip6OutPkts ip6InPkts"

# The counters now, one "NAME VALUE" line each, into file $1.
snapshot() {
    : > "$1"
    for c in $counters; do
        v=$(rdma_stat "$dev" "$c") || fail "no counter $c on $dev"
        echo "$c $v" >> "$1"
    done
}

# How far counter $1 moved from snapshot $2 to snapshot $3.
moved() {
    awk -v n="$1" '$1 == n { v[FILENAME] = $2 } END { print v[ARGV[2]] - v[ARGV[1]] }' "$2" "$3"
}

for tool in ib_write_bw ib_send_bw ib_read_bw; do
    case "$tool" in
        ib_write_bw) ops=RdmaWrites ;;
        ib_send_bw) ops=RdmaSends ;;
        ib_read_bw) ops=RdmaReads ;;
    esac
    snapshot /tmp/stats.before
    perftest_run "$tool" "$dev" "$gid" "$ip" "$size" "$iters"
    snapshot /tmp/stats.after
    for c in $counters; do
        echo "$tool: $c +$(moved "$c" /tmp/stats.before /tmp/stats.after)"
    done
    for dir in Out In; do
        [ "$(moved "$dir$ops" /tmp/stats.before /tmp/stats.after)" -ge "$iters" ] ||
            fail "$tool: $dir$ops moved less than $iters"
        [ "$(moved "ip4${dir}Octets" /tmp/stats.before /tmp/stats.after)" -ge $((iters * size)) ] ||
            fail "$tool: ip4${dir}Octets moved less than $((iters * size))"
        [ "$(moved "ip4${dir}Pkts" /tmp/stats.before /tmp/stats.after)" -ge $((iters * size / 4096)) ] ||
            fail "$tool: ip4${dir}Pkts moved less than $((iters * size / 4096))"
        [ "$(moved "ip6${dir}Pkts" /tmp/stats.before /tmp/stats.after)" -eq 0 ] ||
            fail "$tool: ip6${dir}Pkts moved (the traffic is IPv4)"
    done
    for pair in ip4OutPkts:ip4InPkts ip4OutOctets:ip4InOctets TxUDP:RxUDP TxUDP:ip4OutPkts; do
        [ "$(moved "${pair%:*}" /tmp/stats.before /tmp/stats.after)" = \
          "$(moved "${pair#*:}" /tmp/stats.before /tmp/stats.after)" ] ||
            fail "$tool: ${pair%:*} and ${pair#*:} moved apart in loopback"
    done
    [ "$(moved ip4InDiscards /tmp/stats.before /tmp/stats.after)" -eq 0 ] ||
        fail "$tool: ip4InDiscards moved in loopback"
done
