# Two guests on one QEMU socket netdev, each on irdma-sim, reach each other: ARP and ICMP in
# both directions through both devices' Tx and Rx engines.
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
ok=1
out=$(ping -c 10 -i 0.2 -W 2 "$T_peer") || ok=0
# The side done first waits for the other's pings to be answered.
pair_meet 5009 || fail "the peer never got to the end of its pings"
[ $ok = 1 ] || { echo "$out"; fail "ping to $T_peer failed"; }
echo "$out" | tail -n 2
echo "$out" | grep -q " 0% packet loss" || fail "ping lost packets"
ip neigh show dev "$ifc" | grep -q "$T_peer lladdr" || fail "no ARP entry for $T_peer"
