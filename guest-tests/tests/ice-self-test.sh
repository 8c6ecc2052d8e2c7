# ethtool's offline self-test, as an administrator runs it on an E810: ice stops the netdev and
# runs its register test (GLINT_ITR/GLINT_CTL patterns), EEPROM test (the NVM checksum), interrupt
# test (SWINT_TRIG on the OICR vector, counted by its OICR handler through PFINT_OICR.SWINT),
# loopback test (a loopback VSI, MAC loopback on through AQ 0x0620, 32 broadcast frames sent on
# its Tx ring must come back in its Rx ring) and link test, then opens the netdev again. Every
# result is 0, the verdict PASS, and the port works afterwards (carrier, ping the gateway).
. /tests/lib.sh
slot=$(irdma_sim_slot) || fail "no irdma-sim function"
ifc=$(ice_up "$slot") || fail "ice did not come up"
ip link set dev "$ifc" up || fail "cannot set $ifc up"
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
# ice's interrupt test gives its OICR handler 1-2 ms to count the software interrupt. Under TCG
# on a busy host another vCPU, the interrupt's target, may not run that soon; run on the CPU
# the OICR interrupt is delivered to, it is taken right after the trigger's write. That CPU is
# the effective affinity: x86 moves an MSI-X vector written to smp_affinity only at its next
# interrupt, so routing it here would take effect after the test's own interrupt.
irq=$(awk -v n="ice-$slot:misc" '$NF == n { sub(":", "", $1); print $1 }' /proc/interrupts)
[ -n "$irq" ] || fail "no ice-$slot:misc interrupt in /proc/interrupts"
eff=$(cat "/proc/irq/$irq/effective_affinity") || fail "IRQ $irq has no effective affinity"
mask=$((0x$eff))
[ "$mask" -gt 0 ] || fail "IRQ $irq is delivered to no CPU ($eff)"
cpu=0
while [ $(((mask >> cpu) & 1)) = 0 ]; do cpu=$((cpu + 1)); done
mark=$(dmesg | wc -l)
taskset -c "$cpu" ethtool -t "$ifc" offline > /tmp/self-test.out 2>&1
rc=$?
cat /tmp/self-test.out
grep -qx "The test result is PASS" /tmp/self-test.out || fail "ethtool -t: the verdict is not PASS (exit $rc)"
[ "$rc" = 0 ] || fail "ethtool -t exited $rc"
for t in "Register test  (offline)" "EEPROM test    (offline)" "Interrupt test (offline)" \
         "Loopback test  (offline)" "Link test   (on/offline)"; do
    v=$(awk -v t="$t" 'index($0, t) == 1 { print $NF }' /tmp/self-test.out)
    [ "$v" = 0 ] || fail "ethtool -t: '$t' is '$v', not 0"
done
[ "$(grep -cE '\((on/)?offline\)' /tmp/self-test.out)" = 5 ] || fail "ethtool -t did not report 5 results"
# ice logged each test and nothing it could not undo (rings, filter, loopback, reopen).
log=$(dmesg | tail -n +$((mark + 1)))
for l in "offline testing starting" "link test" "EEPROM test" "interrupt test" "loopback test" \
         "testing finished"; do
    echo "$log" | grep -q "ice $slot $ifc: $l" || fail "ice did not log '$l'"
done
errs=$(echo "$log" | grep -E "ice $slot" | grep -iE "fail|error|could not|unable")
[ -z "$errs" ] || fail "ice reported: $errs"
# The netdev is open again: carrier, and frames to and from the gateway.
wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc after the self-test"
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || ip addr add 10.0.2.15/24 dev "$ifc"
wait_for "ping -c 1 -W 1 10.0.2.2" 20 || fail "no ping reply from the gateway after the self-test"
echo "self-test PASS, 5 results 0; $ifc open again and answering"
