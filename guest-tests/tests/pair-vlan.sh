# 802.1Q between the two guests: ice offloads VLAN insertion (Tx descriptors' IL2TAG1) and
# stripping (the VSI's inner VLAN mode, tag reported in the Rx descriptor); ping over VLAN 100.
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
ethtool -k "$ifc" | grep -q "rx-vlan-offload: on" || fail "VLAN stripping is not on"
ethtool -k "$ifc" | grep -q "tx-vlan-offload: on" || fail "VLAN insertion is not on"
ip link add link "$ifc" name "$ifc.100" type vlan id 100 || fail "cannot create VLAN 100"
me=10.0.4.${T_ip##*.}
peer=10.0.4.${T_peer##*.}
ip addr add "$me/24" dev "$ifc.100"
ip link set dev "$ifc.100" up
wait_for "ping -c 1 -W 1 $peer" 60 || fail "no answer from $peer over VLAN 100"
out=$(ping -c 5 -i 0.2 -W 2 "$peer") || { echo "$out"; fail "ping over VLAN 100 failed"; }
echo "$out" | grep -q " 0% packet loss" || fail "ping over VLAN 100 lost packets"
echo "ping over VLAN 100 ok"
