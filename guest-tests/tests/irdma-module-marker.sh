# The guest's irdma is the module the user built (scripts/build-module.sh --marker TEXT, booted
# with --module): its module init printed the line with the marker the host put on the kernel
# command line (t.marker=TEXT). The line is printed before irdma registers its auxiliary drivers,
# so it shows whether or not the device then probes. irdma is unloaded again if it was not
# loaded before: the tests after this one set ice's channels up first (ethtool -L is refused
# while RDMA is active).
. /tests/lib.sh
[ -n "${T_marker:-}" ] || fail "no t.marker= on the kernel command line"
loaded=$([ -e /sys/module/irdma ] && echo 1)
modprobe irdma || fail "modprobe irdma failed"
line="irdma: built by irdma-sim module test $T_marker"
wait_for "dmesg | sed 's/^\[[^]]*\] //' | grep -Fxq '$line'" 10 ||
    fail "no '$line' in the kernel log (irdma lines: $(dmesg | grep -c 'irdma'))"
echo "$line"
echo "irdma taint flags: $(cat /sys/module/irdma/taint 2>/dev/null)"
[ -n "$loaded" ] || irdma_unload || fail "rmmod irdma failed"
