# Fault class "admin command delayed" (docs/faults.md): with plan aq-lldp-stop-slow the
# firmware takes 1.5 s over the next "stop LLDP agent" command (0x0a05), and answers it only
# once ice has posted the command behind it. ice waits 1 s for any
# command (ICE_CTL_Q_SQ_CMD_TIMEOUT), so it gives up on this one and warns "Fail to stop LLDP
# agent"; the command it sends next waits behind the slow one and is answered in time. Checks: ethtool returns (no
# hang) after at least the 1 s ice waits, ice warned, the fault fired once; once the firmware
# has caught up, the admin queue is in step again: the agent turns on and off without a
# warning, the port is up and every verb works.
. /tests/lib.sh
ifc=$(irdma_up) || fail "irdma0 did not come up"
# The agent is off after ice's probe here: on first, so that "off" sends the stop command.
ethtool --set-priv-flags "$ifc" fw-lldp-agent on || fail "ethtool failed to turn the LLDP agent on"
warned=$(dmesg_count "Fail to stop LLDP agent") || fail "cannot count ice's warnings"
fault_plan aq-lldp-stop-slow
t0=$(uptime_s) || fail "no uptime"
ethtool --set-priv-flags "$ifc" fw-lldp-agent off
t1=$(uptime_s) || fail "no uptime"
echo "ethtool took $(awk -v a="$t1" -v b="$t0" 'BEGIN { print a - b }') s"
took_at_least "$t1" "$t0" 1 || fail "ethtool returned before ice's 1 s command timeout"
[ "$(dmesg_count "Fail to stop LLDP agent")" = $((warned + 1)) ] ||
    fail "ice did not warn that the LLDP agent did not stop"
expect_faults_logged 'lldp-stop-slow aq 0x0a05 delay 1200000000 until-next' 1
host_ask "faults none" > /dev/null
sleep 3
warned=$(dmesg_count "Fail to stop LLDP agent") || fail "cannot count ice's warnings"
ethtool --set-priv-flags "$ifc" fw-lldp-agent on || fail "the LLDP agent does not turn on again"
ethtool --set-priv-flags "$ifc" fw-lldp-agent off || fail "the LLDP agent does not turn off again"
[ "$(dmesg_count "Fail to stop LLDP agent")" = "$warned" ] || fail "ice warned with the firmware caught up"
fault_test_done
echo "one LLDP stop answered 1.5 s late: ice timed out and went on; the queue is in step afterwards"
