# Helpers shared by the guest tests (sourced). A test fails with `fail MSG`.
# shellcheck shell=sh

fail() {
    echo "FAIL: $*"
    exit 1
}

# PCI address (0000:00:03.0) of the irdma-sim function, found by id in sysfs.
irdma_sim_slot() {
    for d in /sys/bus/pci/devices/*; do
        if [ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x1593 ]; then
            basename "$d"
            return 0
        fi
    done
    return 1
}

# Wait up to $2 seconds for the kernel log to match the extended regex $1.
wait_dmesg() {
    n=0
    while [ "$n" -lt "$(( $2 * 10 ))" ]; do
        dmesg | grep -Eq "$1" && return 0
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

# The device serial number QEMU derives from the MAC: mac[0..2] ff ff mac[3..5], as hex.
dsn_of_mac() {
    echo "$1" | awk -F: '{ printf "%s%s%sffff%s%s%s\n", $1, $2, $3, $4, $5, $6 }' | tr 'A-F' 'a-f'
}
