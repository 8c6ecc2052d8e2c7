# Fault class "admin command error" (docs/faults.md): with plan aq-lldp-stop-error the next
# five "stop LLDP agent" commands (0x0a05) are answered EBUSY without being run. ice retries
# EBUSY for this command, 3 sends in all. Checks: turning the firmware LLDP agent off through
# ethtool, all three sends fail, so ice warns "Fail to stop LLDP agent", carries on and, reading
# the firmware's DCBX state back, reports the agent still on; the second time two sends fail
# and the third goes through: no warning, the agent off. The plan fired exactly 5 times; with it gone the agent turns on and
# off again without a warning.
. /tests/lib.sh
ifc=$(irdma_up) || fail "irdma0 did not come up"
# The agent is off after ice's probe here: on first, so that "off" sends the stop command.
ethtool --set-priv-flags "$ifc" fw-lldp-agent on || fail "ethtool failed to turn the LLDP agent on"
warned=$(dmesg_count "Fail to stop LLDP agent") || fail "cannot count ice's warnings"
fault_plan aq-lldp-stop-error
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "ethtool failed to turn the LLDP agent off"
[ "$(dmesg_count "Fail to stop LLDP agent")" = $((warned + 1)) ] ||
    fail "ice did not warn once that the LLDP agent did not stop"
expect_faults_logged 'lldp-stop-busy aq 0x0a05 error 0x0c' 3
# ice_init_pf_dcb re-reads the firmware's DCBX state: its agent still runs, so the flag is on.
ethtool --show-priv-flags "$ifc" | grep -qE "fw-lldp-agent[[:space:]]*: on" ||
    fail "ice does not report the agent the firmware still runs"
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "the LLDP agent does not turn off again"
ethtool --show-priv-flags "$ifc" | grep -qE "fw-lldp-agent[[:space:]]*: off" ||
    fail "the agent is not off after a stop that went through"
expect_faults_logged 'lldp-stop-busy aq 0x0a05 error 0x0c' 5
[ "$(dmesg_count "Fail to stop LLDP agent")" = $((warned + 1)) ] ||
    fail "ice warned although its third send went through"
host_ask "faults none" > /dev/null
ethtool --set-priv-flags "$ifc" fw-lldp-agent on || fail "the LLDP agent does not turn on without the plan"
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "the LLDP agent does not turn off without the plan"
[ "$(dmesg_count "Fail to stop LLDP agent")" = $((warned + 1)) ] || fail "ice warned with the plan gone"
grep -q ACTIVE /sys/class/infiniband/irdma0/ports/1/state || fail "irdma0 is not active"
fault_test_done
echo "LLDP stop answered EBUSY 5 times: ice gave up after 3 sends (warned), then got through at the 3rd"
