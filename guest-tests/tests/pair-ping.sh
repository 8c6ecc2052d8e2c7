# Two guests on one QEMU socket netdev, each on irdma-sim, reach each other: ARP and ICMP in
# both directions through both devices' Tx and Rx engines.
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
out=$(ping -c 10 -i 0.2 -W 2 "$T_peer") || { echo "$out"; fail "ping to $T_peer failed"; }
echo "$out" | tail -n 2
echo "$out" | grep -q " 0% packet loss" || fail "ping lost packets"
ip neigh show dev "$ifc" | grep -q "$T_peer lladdr" || fail "no ARP entry for $T_peer"
