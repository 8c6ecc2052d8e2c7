# Receive-side scaling: 16 TCP connections from a to b, each to a port of its own. The
# receiver's device hashes each flow (Toeplitz over addresses and ports with the key and LUT ice
# programmed) to one of its queues, so more than one Rx queue must have carried traffic. The
# destination ports differ as well as the source ports: Linux picks successive connections'
# source ports a small even step apart, so they alone vary in a few bits, and with a key (ice's
# is random each boot) whose bits at those places all map one way every flow shares a queue.
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
nq=$(ls -d "/sys/class/net/$ifc/queues/rx-"* | wc -l)
[ "$nq" -ge 2 ] || fail "$ifc has $nq Rx queue(s); RSS needs 2 or more"
for i in $(seq 1 16); do
    case "$T_role" in
        a) tcpxfer send "$T_peer" $((5100 + i)) 65536 "$i" > /dev/null || fail "send $i failed" ;;
        b) tcpxfer recv $((5100 + i)) 65536 "$i" > /dev/null || fail "flow $i did not arrive intact" ;;
    esac
done
[ "$T_role" = b ] || exit 0
used=$(ethtool -S "$ifc" | grep -E "rx_queue_[0-9]+_packets" | awk '$2 > 0' | wc -l)
ethtool -S "$ifc" | grep -E "rx_queue_[0-9]+_packets"
[ "$used" -ge 2 ] || fail "all 16 flows landed on one Rx queue: no RSS"
echo "16 flows spread over $used of $nq Rx queues"
