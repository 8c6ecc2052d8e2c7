# What an administrator reads off an E810 besides the self-test: ethtool -S counters that move
# with traffic (the VSI's hardware counters, GLV_*), ethtool -d (ice's register dump), ethtool -m
# (the SR module's EEPROM through AQ 0x06EE: an SFF-8472 SFP28 with diagnostics), devlink dev
# info agreeing with ethtool -i, and devlink health (each kernel's own reporters).
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up || fail "cannot set $ifc up"
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || ip addr add 10.0.2.15/24 dev "$ifc"
wait_for "ping -c 1 -W 1 10.0.2.2" 20 || fail "no ping reply from the gateway"

# ethtool -S: the VSI's counters (GLV_*) and the port's (.nic, GLPRT_*). The value of counter
# $1, or status 1 if ethtool -S has no such line.
stat() {
    v=$(ethtool -S "$ifc" | awk -v n="$1:" '$1 == n { print $2; exit }')
    [ -n "$v" ] || return 1
    echo "$v"
}
# 20 echo requests of 1000 payload bytes (1042-byte frames, 1046 with the FCS: the 1024-1522
# bucket), 20 replies.
n=20 frame=1042
before=""
counters="rx_unicast tx_unicast rx_bytes tx_bytes rx_unicast.nic tx_unicast.nic rx_bytes.nic
          tx_bytes.nic rx_size_1522.nic tx_size_1522.nic"
for c in $counters; do
    v=$(stat "$c") || fail "ethtool -S has no $c"
    before="$before $v"
done
out=$(ping -c "$n" -i 0.05 -s 1000 -W 2 10.0.2.2) || { echo "$out"; fail "ping failed"; }
echo "$out" | grep -q " 0% packet loss" || fail "ping lost packets"
set -- $before
for c in $counters; do
    v=$(stat "$c") || fail "ethtool -S has no $c"
    case "$c" in *_bytes*) want=$((n * frame)) ;; *) want=$n ;; esac
    [ $((v - $1)) -ge "$want" ] || fail "ethtool -S: $c grew by $((v - $1)), want >= $want"
    echo "ethtool -S: $c +$((v - $1)) (>= $want)"
    shift
done

# ethtool -d: ice's register list, read from the device; QRX_CTRL(0) (the third word) shows the
# PF's first Rx queue enabled (QENA_REQ and QENA_STAT).
ethtool -d "$ifc" > /tmp/regs.txt 2>&1 || { head /tmp/regs.txt; fail "ethtool -d failed"; }
ethtool -d "$ifc" raw on > /tmp/regs.bin || fail "ethtool -d raw failed"
size=$(wc -c < /tmp/regs.bin)
[ "$size" -ge 28 ] && [ $((size % 4)) = 0 ] || fail "ethtool -d dumped $size bytes"
qrx=$(od -A n -t u4 -j 8 -N 4 /tmp/regs.bin | tr -d ' ')
[ $((qrx & 5)) = 5 ] || fail "ethtool -d: QRX_CTRL(0) is $qrx, not an enabled queue"
echo "ethtool -d: $size bytes, QRX_CTRL(0) $(printf 0x%08x "$qrx")"

# ethtool -m: the module's EEPROM, decoded (SFF-8472: ID page and diagnostics page, 512 bytes).
ethtool -m "$ifc" > /tmp/module.txt 2>&1 || { cat /tmp/module.txt; fail "ethtool -m failed"; }
cat /tmp/module.txt
for want in "Identifier *: 0x03 \(SFP\)" "Vendor name *: irdma-sim" "Vendor PN *: SIM-SFP28-SR" \
            "Laser wavelength *: 850nm" "Module temperature *: 35\.00 degrees C" \
            "Module voltage *: 3\.3000 V"; do
    grep -qE "^\s*$want" /tmp/module.txt || fail "ethtool -m lacks '$want'"
done
ethtool -m "$ifc" raw on > /tmp/module.bin || fail "ethtool -m raw failed"
[ "$(wc -c < /tmp/module.bin)" = 512 ] || fail "ethtool -m: $(wc -c < /tmp/module.bin) bytes, not SFF-8472's 512"

# devlink dev info reports the versions ethtool -i prints as "PSID-API BUNDLE UNDI".
fwv=$(ethtool -i "$ifc" | sed -n 's/^firmware-version: //p')
[ -n "$fwv" ] || fail "ethtool -i printed no firmware-version"
dl=$(devlink dev info "pci/$slot") || fail "devlink dev info failed"
ver() {
    echo "$dl" | awk -v k="$1" '$1 == k { print $2; exit }'
}
set -- $fwv
[ "$1" = "$(ver fw.psid.api)" ] && [ "$2" = "$(ver fw.bundle_id)" ] && [ "$3" = "$(ver fw.undi)" ] ||
    fail "ethtool -i '$fwv' differs from devlink's fw.psid.api/fw.bundle_id/fw.undi"
echo "devlink dev info agrees with ethtool -i: $fwv"

# devlink health: ice 6.1 and 6.12 register no reporter; 7.3 mdd, tx_hang, fw and port (the
# firmware's health status: AQ 0xFF20), each healthy with no error.
devlink health show > /tmp/health.out 2>&1 || { cat /tmp/health.out; fail "devlink health show failed"; }
# The reporters of this device: the lines after its "pci/SLOT:" header, up to the next device.
health=$(awk -v dev="pci/$slot:" '/^[^ ]/ { mine = ($1 == dev) } mine' /tmp/health.out)
echo "devlink health: ${health:-(no reporters)}"
case "$(uname -r)" in
    6.*) want="" ;;
    *) want="fw mdd port tx_hang" ;;
esac
got=$(echo "$health" | awk '$1 == "reporter" { print $2 }' | sort | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "devlink health reporters are '$got', want '$want'"
[ "$(echo "$health" | grep -c "^ *state healthy error 0 ")" = "$(echo "$got" | wc -w)" ] ||
    fail "not every devlink health reporter is healthy with no error"
echo "devlink health: reporters '${got}' as ice $(uname -r) registers them"
