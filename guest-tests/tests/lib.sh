# Helpers shared by the guest tests (sourced). A test fails with `fail MSG`.
# shellcheck shell=sh
#
# A helper that prints a value (a name, an index, a count) prints a non-empty one and returns 0,
# or prints nothing and returns non-zero (or fails). A status inside $(...) is lost unless it is
# tested, so every use of such a value is `x=$(helper ...) || fail "..."`; tests/guest-lint.py
# (a unit test) enforces that. Helpers named *_lines print the lines of a log that match (none:
# empty), so their empty output is an answer, not a failure.

# On stderr too, so a failure inside $(...) or under a redirection still shows.
fail() {
    echo "FAIL: $*" >&2
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
    echo "$1" | grep -qiE '^([0-9a-f]{2}:){5}[0-9a-f]{2}$' || return 1
    echo "$1" | awk -F: '{ printf "%s%s%sffff%s%s%s\n", $1, $2, $3, $4, $5, $6 }' | tr 'A-F' 'a-f'
}

# Wait up to $2 seconds for command $1 (a string for sh -c) to succeed.
wait_for() {
    n=0
    while [ "$n" -lt "$(( $2 * 10 ))" ]; do
        sh -c "$1" > /dev/null 2>&1 && return 0
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

# Name of the netdev ice created on slot $1; returns 1 if there is none.
ice_netdev() {
    n=$(ls "/sys/bus/pci/devices/$1/net/" 2> /dev/null | head -n 1)
    [ -n "$n" ] && echo "$n"
}

# The netdev ice created on the irdma-sim function.
irdma_sim_netdev() {
    slot=$(irdma_sim_slot) || fail "no irdma-sim function"
    ice_netdev "$slot" || fail "ice has no netdev on $slot"
}

# Load ice if needed and wait until it has a netdev on slot $1; prints the netdev name.
ice_up() {
    modprobe ice || fail "modprobe ice failed"
    wait_for "ls /sys/bus/pci/devices/$1/net/ | grep -q ." 60 || fail "ice created no netdev on $1"
    ice_netdev "$1" || fail "ice's netdev on $1 went away"
}

# Lines ice logged for slot $1 that report a failure. The kernel's firmware loader first tries
# the optional per-device DDP name (ice-<DSN>.pkg) and says it failed: that one is expected.
ice_error_lines() {
    dmesg | grep -E "ice $1|ice:" | grep -iE "fail|error|safe mode|unable|could not|timeout" |
        grep -v "firmware: failed to load intel/ice/ddp/ice-[0-9a-f]\{16\}\.pkg (-2)"
}

# Load virtio_net and wait for the virtio NIC's netdev; prints its name.
virtio_up() {
    modprobe virtio_pci && modprobe virtio_net || fail "modprobe virtio_pci/virtio_net failed"
    wait_for "ls /sys/bus/virtio/drivers/virtio_net/virtio*/net/ | grep -q ." 20 || fail "no virtio netdev"
    n=$(ls /sys/bus/virtio/drivers/virtio_net/virtio*/net/ | head -n 1)
    [ -n "$n" ] || fail "the virtio netdev went away"
    echo "$n"
}

# Two-guest tests (harness --peer-tests): bring the NIC up with this guest's address
# (t.ip, the peer is t.peer) and wait until the peer answers ping; prints the netdev.
# The pair meets at TCP port $1: neither guest goes on (or powers off, when it was its last
# test) before the other has got there too. a connects to b, retrying for 60 s; b waits for it.
pair_meet() {
    case "$T_role" in
        a) tcpxfer send "$T_peer" "$1" 1 0 > /dev/null ;;
        b) tcpxfer recv "$1" 1 0 > /dev/null ;;
        *) return 1 ;;
    esac
}

pair_up() {
    [ -n "${T_ip:-}" ] && [ -n "${T_peer:-}" ] || fail "not booted as one of a pair (no t.ip/t.peer)"
    if [ "${T_nic:-irdma-sim}" = virtio ]; then
        ifc=$(virtio_up) || fail "no virtio netdev"   # the comparison NIC of the benchmarks
    else
        slot=$(irdma_sim_slot) || fail "no irdma-sim function"
        ifc=$(ice_up "$slot") || fail "ice did not come up on $slot"
    fi
    ip -4 addr show dev "$ifc" | grep -q "inet $T_ip/24" || ip addr add "$T_ip/24" dev "$ifc"
    ip link set dev "$ifc" up
    wait_for "grep -qx 1 /sys/class/net/$ifc/carrier" 20 || fail "no carrier on $ifc"
    wait_for "ping -c 1 -W 1 $T_peer" 90 || fail "peer $T_peer never answered"
    echo "$ifc"
}

# Ask the host harness and print its JSON answer, or fail after $2 seconds (default 20). The
# request is "@@HOST <id> <command>" on the console; the harness types "@@REPLY <id> <json>"
# back on it, and lines with other ids (answers nobody waited for) are skipped.
host_ask() {
    id="$$.$RANDOM"
    echo "@@HOST $id $1" > /dev/console
    while IFS= read -r -t "${2:-20}" line < /dev/console; do
        case "$line" in
            *"@@REPLY $id "*) echo "${line#*@@REPLY $id }"; return 0 ;;
        esac
    done
    fail "no answer from the host to '$1'"
}

# The number the host answers to the request $1 (host_ask), or fail naming the request.
host_number() {
    reply=$(host_ask "$1") || fail "no answer to $1"
    v=$(echo "$reply" | sed -n 's/.*"return": *\([0-9][0-9]*\).*/\1/p')
    [ -n "$v" ] || fail "$1: $reply"
    echo "$v"
}

# The value (a number) of a read-only property of the irdma-sim device, through the host's QMP.
host_device_prop() {
    host_number "qom-get $1"
}

# Load irdma on top of ice and wait for irdma0's port to be active; prints the netdev.
irdma_up() {
    slot=$(irdma_sim_slot) || fail "no irdma-sim function"
    ifc=$(ice_up "$slot") || fail "ice did not come up on $slot"
    ip link set dev "$ifc" up || fail "cannot set $ifc up"
    rdma_attach irdma0 "$ifc"
    echo "$ifc"
}

# Give netdev $2 the RDMA device $1 and wait for its port to be active. rxe*: a Soft-RoCE link
# on the netdev; any other name is irdma's on the ice netdev.
rdma_attach() {
    case "$1" in
        rxe*)
            [ -e "/sys/class/infiniband/$1" ] || rdma link add "$1" type rxe netdev "$2" ||
                fail "rdma link add $1 on $2 failed"
            ;;
        *) modprobe irdma || fail "modprobe irdma failed" ;;
    esac
    wait_for "[ -e /sys/class/infiniband/$1/ports/1/state ]" 60 || fail "no ib_device $1"
    wait_for "grep -q ACTIVE /sys/class/infiniband/$1/ports/1/state" 30 ||
        fail "$1 port 1 is $(cat "/sys/class/infiniband/$1/ports/1/state"); $2 is" \
            "$(cat "/sys/class/net/$2/operstate"), carrier $(cat "/sys/class/net/$2/carrier")"
}

# Index of the RoCE v2 GID of IPv4 address $2 among the first 16 of device $1's port 1,
# waiting up to 20 s: the GID table follows address changes asynchronously.
roce_gid_index() {
    want=$(echo "$2" | awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n", $1, $2, $3, $4 }')
    port=/sys/class/infiniband/$1/ports/1
    n=0
    while [ "$n" -lt 200 ]; do
        for i in $(seq 0 15); do
            if [ "$(cat "$port/gids/$i" 2> /dev/null)" = "$want" ] &&
                [ "$(cat "$port/gid_attrs/types/$i" 2> /dev/null)" = "RoCE v2" ]; then
                echo "$i"
                return 0
            fi
        done
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

# The address the single-guest RDMA tests give device $1's netdev: irdma0's is 10.0.2.15 as in
# the LAN tests; rxe's differs so that, with both NICs in one guest (bench-rdma.sh), rdma_cm
# and the GID tables map each address to one device.
rdma_dev_ip() {
    case "$1" in
        rxe*) echo 10.0.5.15 ;;
        *) echo 10.0.2.15 ;;
    esac
}

# Single-guest RDMA tests: bring device $1 up (rxe*: on the virtio NIC; else irdma0 on
# irdma-sim) with its address (rdma_dev_ip); prints the index of that address's RoCE v2 GID.
rdma_dev_up() {
    case "$1" in
        rxe*)
            ifc=$(virtio_up) || fail "no virtio netdev for $1"
            ip link set dev "$ifc" up || fail "cannot set $ifc up"
            rdma_attach "$1" "$ifc"
            ;;
        *) ifc=$(irdma_up) || fail "irdma0 did not come up" ;;
    esac
    addr=$(rdma_dev_ip "$1") || fail "no address for $1"
    ip -4 addr show dev "$ifc" | grep -q "inet $addr/24" || ip addr add "$addr/24" dev "$ifc"
    roce_gid_index "$1" "$addr" || fail "no RoCE v2 GID for $addr on $1"
}

# Wait up to $2 seconds for a TCP listener on port $1 (IPv4 or IPv6).
wait_tcp_listen() {
    wait_for "grep -qs ':$(printf %04X "$1") [0-9A-F]*:0000 0A' /proc/net/tcp /proc/net/tcp6" "$2"
}

# The checks rdma-verify (guest-tests/rdma-verify.c, its checks[] and check_sizes) runs without
# --quick, in order, as "ok NAME" or (named in $3, checks the responder's device does not offer)
# "na NAME": $1 is the requester QP's max_inline_data, $2 the UD message size (the path MTU).
rdma_verify_expected() {
    inl=$1 ud=$2 na=" $3 "
    {
    for c in rc-send rc-send-imm rc-write rc-write-imm rc-read; do
        for sz in 1 2 63 64 4095 4096 4097 65536 1048576 4194304; do echo "$c-$sz"; done
    done
    for c in rc-send-inline rc-write-inline; do
        echo "$c-1"; echo "$c-$((inl / 2))"; echo "$c-$inl"
    done
    echo rc-send-sge2x4; echo rc-send-sge3x3; echo rc-send-imm-sge4x2; echo rc-write-sge3
    echo rc-read-sge4
    for c in ud-send ud-send-imm; do
        echo "$c-1"; echo "$c-64"; echo "$c-$ud"
    done
    echo mw-write; echo err-write-bad-rkey; echo err-write-beyond-mr
    echo err-read-no-remote-read; echo err-flush
    } | while read -r name; do
        case "$na" in *" $name "*) echo "na $name" ;; *) echo "ok $name" ;; esac
    done
}

# Whether device $1 offers memory windows on this kernel: the one place for that per-kernel
# expectation. 6.1 and 6.12: irdma and rxe do. 7.x irdma registers alloc_mw only on gen3
# (E810 is gen2): ibv_alloc_mw fails with EOPNOTSUPP.
offers_mw() {
    case "$(uname -r)@$1" in
        7.*@irdma*) return 1 ;;
    esac
}

# guest-tests/verbs-ctrl on device $1, GID index $2, expecting memory windows where offers_mw.
verbs_ctrl() {
    if offers_mw "$1"; then verbs-ctrl "$1" "$2"; else verbs-ctrl "$1" "$2" no-mw; fi
}

# The rdma-verify checks a responder device $1 does not offer on this kernel: they must report
# n/a, every other check must pass.
rdma_verify_na_lines() {
    offers_mw "$1" || echo mw-write
}

# Check rdma-verify's output (file $1, exit status $2): exactly the expected checks in order
# (rdma_verify_expected for its header's inline size and device, UD messages up to the 1024-byte
# path MTU of a 1500-byte netdev), each "ok" or, for what rdma_verify_na_lines names, "na"; the
# summary line's counts match. Prints the summary.
rdma_verify_result() {
    summary=$(grep -E '^rdma-verify: [0-9]+ ok, [0-9]+ failed$' "$1") || fail "rdma-verify printed no summary (exit $2)"
    ok=$(echo "$summary" | awk '{ print $2 }')
    failed=$(echo "$summary" | awk '{ print $4 }')
    [ "$ok" = "$(grep -c '^ok ' "$1")" ] || fail "summary says $ok ok, the lines say otherwise"
    [ "$failed" = "$(grep -c '^FAIL ' "$1")" ] || fail "summary says $failed failed, the lines say otherwise"
    [ "$failed" = 0 ] && [ "$2" = 0 ] || fail "rdma-verify: $failed check(s) failed (exit $2)"
    # shellcheck disable=SC2046
    set -- "$1" $(awk '/^rdma-verify: requester [^ ,]+, responder [^ ,]+, max_inline_data [0-9]+, UD size [0-9]+$/ {
                           sub(/,$/, "", $3); sub(/,$/, "", $5); sub(/,$/, "", $7); print $3, $5, $7, $10 }' "$1")
    [ $# = 5 ] || fail "rdma-verify printed no header (requester, responder, inline, UD size)"
    [ "$4" -ge 64 ] || fail "the requester's QP took max_inline_data $4, less than the 64 asked for"
    [ "$5" = 1024 ] || fail "UD size $5: the path MTU is not 1024"
    na=$(rdma_verify_na_lines "$3" | tr '\n' ' ')
    rdma_verify_expected "$4" 1024 "$na" > /tmp/rdma-verify.want
    awk '/^(ok|na|FAIL) / { n = $2; sub(/:$/, "", n); print $1, n }' "$1" > /tmp/rdma-verify.got
    cmp -s /tmp/rdma-verify.want /tmp/rdma-verify.got || {
        diff /tmp/rdma-verify.want /tmp/rdma-verify.got | grep '^[-+][a-zA-Z]'
        fail "rdma-verify's checks differ from the expected ones (above: - expected, + reported)"
    }
    echo "$summary; $(wc -l < /tmp/rdma-verify.want) checks as expected (responder $3)"
}

# Run "$2 $3 ..." in the background as a server that meets its client on TCP port 18515 (as
# rdma-core's pingpongs and perftest do), then the same command line plus address $1 as that
# client; both must succeed within 60 s. Their outputs are /tmp/$2.server and /tmp/$2.client.
server_and_client() {
    addr=$1
    shift
    # With two CPUs or more, the server runs on CPU 0 and the client on CPU 1: two busy-polling
    # processes left to share one CPU take turns at the scheduler's tick (4 ms), and a latency
    # tool would measure the tick, not the device.
    srv_cpu="" cli_cpu=""
    [ "$(nproc)" -lt 2 ] || { srv_cpu="taskset -c 0" cli_cpu="taskset -c 1"; }
    # shellcheck disable=SC2086
    timeout 60 $srv_cpu "$@" > "/tmp/$1.server" 2>&1 &
    srv=$!
    wait_tcp_listen 18515 20 || { cat "/tmp/$1.server"; fail "$1 server never listened"; }
    # shellcheck disable=SC2086
    timeout 60 $cli_cpu "$@" "$addr" > "/tmp/$1.client" 2>&1 || { cat "/tmp/$1.client"; fail "$1 client failed"; }
    wait "$srv" || { cat "/tmp/$1.server"; fail "$1 server failed"; }
}

# Hardware counter $2 of RDMA device $1's port 1 as `rdma statistic show link` reads it (irdma:
# a GATHER_STATS of the function's counters): prints its value. irdma before 7.x names the RDMA
# operation counters with an "iw" prefix (iwOutRdmaWrites for OutRdmaWrites): either is taken.
rdma_stat() {
    v=$(rdma statistic show link "$1/1") || return 1
    v=$(echo "$v" | awk -v n="$2" '{ for (i = 1; i < NF; i++) if ($i == n || $i == "iw" n) { print $(i + 1); exit } }')
    [ -n "$v" ] || return 1
    echo "$v"
}

# A perftest spec of t.perftest, TOOL[:BYTES[:ITERATIONS]]: sets PT_TOOL, PT_BYTES and
# PT_ITERS (defaults: 64 KiB x 200 for a bandwidth tool, 2 B x 500 for a latency tool).
perftest_spec() {
    PT_TOOL=${1%%:*}
    case "$PT_TOOL" in
        *_bw) PT_BYTES=65536 PT_ITERS=200 ;;
        *_lat) PT_BYTES=2 PT_ITERS=500 ;;
        *) fail "not a perftest tool: $PT_TOOL" ;;
    esac
    IFS=: read -r _ b n <<EOS
$1
EOS
    PT_BYTES=${b:-$PT_BYTES} PT_ITERS=${n:-$PT_ITERS}
    case "$PT_BYTES$PT_ITERS" in *[!0-9]*) fail "not TOOL[:BYTES[:ITERATIONS]] in t.perftest: $1" ;; esac
}

# Sets PT_OPTS, perftest's options for tool $1 besides device, GID, size and iterations. The
# latency tools ask for more inline data by default than irdma allows (101 bytes; QP creation
# fails), and perftest has no table entry for this device: 64 on every device. READ takes no
# inline data: perftest refuses -I for ib_read_lat.
perftest_opts() {
    case "$1" in ib_write_lat|ib_send_lat) PT_OPTS="-F -I 64" ;; *) PT_OPTS="-F" ;; esac
}

# The result row of perftest tool $1 on device $2 for $3-byte messages and $4 iterations in
# client output $5: it must report those bytes and iterations and a positive average. Prints
# "TOOL DEV: BYTES B x ITERS: average N MB/s" (bandwidth tools) or "... average N usec, median
# M usec, p99 P usec" (latency tools: the median is perftest's t_typical, which a stall of a few
# iterations (warm-up) does not move as it moves the average; the 99th percentile is the tail).
perftest_report() {
    case "$1" in
        *_bw) col=4 unit=MB/s ;;   # bytes iterations peak average msg-rate
        *) col=6 unit=usec ;;      # bytes iterations min max typical average stdev 99% 99.9%
    esac
    avg=$(awk -v s="$3" -v n="$4" -v c="$col" '$1 == s && $2 == n && $c > 0 { print $c }' "$5")
    [ -n "$avg" ] || { cat "$5"; fail "$1: no result row for $3 B x $4 iterations"; }
    case "$1" in
        *_lat) echo "$1 $2: $3 B x $4: average $avg $unit, $(awk -v s="$3" -v n="$4" \
                   '$1 == s && $2 == n { printf "median %s usec, p99 %s", $5, $8 }' "$5") $unit" ;;
        *) echo "$1 $2: $3 B x $4: average $avg $unit" ;;
    esac
}

# Run perftest tool $1 on device $2 (GID index $3) with $5-byte messages and $6 iterations: its
# server in the background, its client to address $4; prints perftest_report's line.
perftest_run() {
    # perftest times with the TSC, calibrated against the clock over a short sample; under TCG on
    # a busy host that sample can be too noisy ("Correlation coefficient r^2 < 0.9"), and then
    # every figure comes out 0. That is the measurement failing, not the device: up to 3 runs.
    perftest_opts "$1"
    for attempt in 1 2 3; do
        # shellcheck disable=SC2086
        server_and_client "$4" "$1" -d "$2" -x "$3" -s "$5" -n "$6" $PT_OPTS
        grep -q "^Correlation coefficient" "/tmp/$1.client" || break
        echo "$1 $2: run $attempt: $(grep "^Correlation coefficient" "/tmp/$1.client"): TSC calibration failed"
    done
    perftest_report "$1" "$2" "$5" "$6" "/tmp/$1.client"
}

# irdma / ib_core lines that report a failure. A module the user built (run-guest.py --module) is
# unsigned: the kernel's signature note on loading it is no failure of the driver.
irdma_error_lines() {
    dmesg | grep -E "irdma|infiniband" | grep -iE "fail|error|couldn't|unable|timeout" |
        grep -v "module verification failed: signature and/or required key missing"
}

# Check an rdma-stream run: output file $1, $2 QP pairs, its exit code $3; prints the summary.
rdma_stream_result() {
    summary=$(grep -E '^rdma-stream: [0-9]+ qps, [0-9]+ messages, [0-9]+ bytes, [0-9]+ errors, [0-9]+ stalls$' \
        "$1") || { cat "$1"; fail "rdma-stream printed no summary (exit $3)"; }
    [ "$(grep -cE '^qp [0-9]+: [1-9][0-9]* messages, [0-9]+ bytes, 0 errors$' "$1")" = "$2" ] ||
        { cat "$1"; fail "not every one of the $2 QP pairs moved messages without error"; }
    [ "$3" = 0 ] && ! grep -q '^FAIL' "$1" || { cat "$1"; fail "rdma-stream failed (exit $3)"; }
    echo "$summary"
}

# rmmod irdma with the unloading task and irdma's CQP completion worker (an unbound kworker) on
# CPU 0. Unloading, irdma polls the CCQ for its last CEQ destroy while the worker that completed
# the op before may still be draining the same CCQ; with the two on different vCPUs and the
# worker's vCPU descheduled by the host, both take CQEs and the unload hangs
# (docs/driver-findings.md). On one vCPU the worker drains first. 6.1 leaves an existing
# ordered workqueue on the CPUs it was created with, so there only the unloading task moves.
irdma_unload() {
    local mask=/sys/devices/virtual/workqueue/cpumask old rc=0
    old=$(cat "$mask") || return 1
    echo 1 > "$mask" || return 1
    taskset 1 rmmod irdma || rc=$?
    echo "$old" > "$mask" || rc=1
    return $rc
}

# The DCB flows on ice netdev $1: firmware LLDP agent off (DCB in software, set with dcbnl) and
# 8 channels, as ice needs a queue per TC (the boot needs 8 vCPUs). ice refuses to change the
# channels while irdma is bound to its RDMA function (every kernel; 6.1 and 6.12 start with 8
# on 8 vCPUs, 7.x with fewer): then irdma is unloaded for the change and loaded again.
dcb_sw_mode() {
    ethtool --set-priv-flags "$1" fw-lldp-agent off || fail "cannot turn the firmware LLDP agent off"
    [ "$(ethtool -l "$1" | awk '/^Combined:/ { n = $2 } END { print n }')" = 8 ] && return
    if [ -e /sys/class/infiniband/irdma0 ]; then
        ! ethtool -L "$1" combined 8 2> /dev/null ||
            fail "ice changed the channels while irdma was bound"
        dmesg | grep -q "Cannot change channels when RDMA is active" ||
            fail "ice refused the channel change without saying RDMA is active"
        irdma_unload || fail "cannot unload irdma for the channel change"
        ethtool -L "$1" combined 8 || fail "ethtool -L combined 8 failed (vCPUs: $(nproc))"
        rdma_attach irdma0 "$1"
        ip=$(rdma_dev_ip irdma0) || fail "no address for irdma0"
        roce_gid_index irdma0 "$ip" > /dev/null || fail "irdma0 has no RoCE v2 GID after the reload"
    else
        ethtool -L "$1" combined 8 || fail "ethtool -L combined 8 failed (vCPUs: $(nproc))"
    fi
}

# How many kernel log lines contain the fixed string $1 (0 too is a count: status 0).
dmesg_count() {
    dmesg | grep -cF -- "$1" || [ $? = 1 ]
}

# How many DCB configurations ice has committed to the hardware (each one is a TC change that
# suspends and resumes every QP).
dcb_commits() {
    dmesg_count "Commit DCB Configuration to the hardware"
}

# The RoCE frames the device has sent and looped back so far.
roce_frames() {
    host_number "qom-sum x-roce-tx-frames x-roce-loopback-frames"
}

# The traffic that runs goes on after $1: the device carries TRAFFIC_MOVED more RoCE frames
# within 10 s.
TRAFFIC_MOVED=64
traffic_goes_on() {
    from=$(roce_frames) || fail "cannot count RoCE frames"
    t0=$(uptime_s) || fail "no uptime"
    while :; do
        now=$(roce_frames) || fail "cannot count RoCE frames"
        [ $((now - from)) -ge "$TRAFFIC_MOVED" ] && return 0
        t=$(uptime_s) || fail "no uptime"
        ! took_at_least "$t" "$t0" 10 ||
            fail "the traffic did not go on after $1: $((now - from)) RoCE frames in 10 s"
        sleep 0.05
    done
}

# dcbnl $@ (guest-tests/dcbnl.c: iproute2's dcb 6.1 misreads its own replies), which ice must
# accept and commit as exactly one new configuration; counts it in TC_CHANGES. With TC_TRAFFIC
# set (a test's traffic runs through the changes), the next change waits until that traffic has
# gone on after this one.
dcb_change() {
    commits=$(dcb_commits) || fail "cannot count DCB commits"
    dcbnl "$@" || fail "dcbnl $* failed"
    [ "$(dcb_commits)" = $((commits + 1)) ] ||
        fail "dcbnl $*: ice committed $(($(dcb_commits) - commits)) configurations, want 1"
    TC_CHANGES=$((TC_CHANGES + 1))
    [ -z "${TC_TRAFFIC:-}" ] || traffic_goes_on "dcbnl $*"
}

# $2 rounds of ETS changes on $1 cycling 1 -> 4 -> 8 -> 1 TCs (different up2tc and bandwidth
# maps), then DSCP mode: two DSCP mappings, an ETS change, and back to VLAN mode. Sets
# TC_CHANGES to the number of changes made.
tc_cycle() {
    TC_CHANGES=0
    for round in $(seq "$2"); do
        dcb_change "$1" ets 25,25,25,25,0,0,0,0 0,1,2,3,0,1,2,3
        dcb_change "$1" ets 16,12,12,12,12,12,12,12 0,1,2,3,4,5,6,7
        dcb_change "$1" ets 100,0,0,0,0,0,0,0 0,0,0,0,0,0,0,0
    done
    switches=$(dmesg_count "Switched QoS to") || fail "cannot count QoS switches"
    dcb_change "$1" app-add 26 3
    expect_qos_switch "L3 DSCP mode" $((switches + 1))
    dcb_change "$1" app-add 46 5
    dcb_change "$1" ets 40,10,10,10,10,10,10,0 0,1,2,3,4,5,6,7
    dcb_change "$1" app-del 46 5
    dcb_change "$1" app-del 26 3
    expect_qos_switch "L2 VLAN mode" $((switches + 2))
}

# ice has logged $2 QoS mode switches, the last one to mode $1.
expect_qos_switch() {
    [ "$(dmesg_count "Switched QoS to")" = "$2" ] &&
        dmesg | grep -F "Switched QoS to" | tail -n 1 | grep -qF "$1" ||
        fail "ice did not switch QoS to $1"
}

# The device's suspend, suspend-complete AE and resume counters (QOM), on one line.
# rping with payload verification (-V) on address $1, server and client in the background
# ($RPING_SRV, $RPING_CLI), output in /tmp/$2.server and /tmp/$2.client; returns once pings
# flow.
rping_start() {
    rping -s -a "$1" -C 1000000 -V > "/tmp/$2.server" 2>&1 &
    RPING_SRV=$!
    wait_for "rdma resource show cm_id | grep -q 'state LISTEN.*$1:7174'" 20 ||
        fail "rping server never listened"
    rping -c -a "$1" -C 1000000 -V -v > "/tmp/$2.client" 2>&1 &
    RPING_CLI=$!
    wait_for "grep -q '^ping data' /tmp/$2.client" 20 || fail "rping never got going"
}

# rping_start's run $1 still goes on (20 more pings within 30 s; $2: after what), is then
# stopped, and reported no mismatch or error.
rping_goes_on_and_stop() {
    pings=$(grep -c "^ping data" "/tmp/$1.client")
    wait_for "[ \$(grep -c '^ping data' /tmp/$1.client) -gt $((pings + 20)) ]" 30 ||
        fail "rping stopped after $2 at $pings pings"
    kill -0 "$RPING_CLI" 2> /dev/null || fail "rping client exited: $(tail -3 "/tmp/$1.client")"
    kill "$RPING_CLI" "$RPING_SRV"
    wait "$RPING_CLI" "$RPING_SRV" 2> /dev/null
    ! grep -qiE "mismatch|error|fail" "/tmp/$1.client" "/tmp/$1.server" ||
        fail "rping reported: $(grep -iE 'mismatch|error|fail' "/tmp/$1.client" "/tmp/$1.server" | head -3)"
}

# The kernel will log a line matching the extended regex $1 (all of the line after its
# timestamp) during this test, and that is right: the harness, which fails a test for any
# oops, BUG, WARNING, ... line in the kernel log (scripts/run-guest.py KLOG_BAD), excuses it.
expect_klog() {
    printf '@@EXPECT-KLOG %s\n' "$1"
}

# irdma 6.1 WARNs twice when a reset unplugs irdma0 while a process still holds verbs objects
# whose destroy commands then fail, in uverbs_destroy_ufile_hw and rdma_restrack_clean: the
# driver's own path. The fault tests whose reset comes while verbs-ctrl runs expect them.
expect_klog_reset_under_verbs() {
    # 6.x: "WARNING: CPU: C PID: P at FILE:LINE FUNC+0x../0x.. [MOD]";
    # 7.x: "WARNING: FILE:LINE at FUNC+0x../0x.. [MOD], CPU#C: COMM/PID".
    expect_klog 'WARNING: (CPU: [0-9]+ PID: [0-9]+ at drivers/infiniband/core/rdma_core\.c:[0-9]+ uverbs_destroy_ufile_hw\+0x[0-9a-f]+/0x[0-9a-f]+ \[ib_uverbs\]|drivers/infiniband/core/uverbs_main\.c:[0-9]+ at uverbs_destroy_ufile_hw\+0x[0-9a-f]+/0x[0-9a-f]+ \[ib_uverbs\], CPU#[0-9]+: .*)'
    expect_klog 'WARNING: (CPU: [0-9]+ PID: [0-9]+ at drivers/infiniband/core/restrack\.c:[0-9]+ rdma_restrack_clean\+0x[0-9a-f]+/0x[0-9a-f]+ \[ib_core\]|drivers/infiniband/core/restrack\.c:[0-9]+ at rdma_restrack_clean\+0x[0-9a-f]+/0x[0-9a-f]+ \[ib_core\], CPU#[0-9]+: .*)'
}

# Kernel log lines of an oops, a panic or a hung task: a fault test fails on any of them. A test
# whose driver spins in a loop of its own long enough to trip the soft-lockup watchdog names
# that function in LOCKUP_IN: a soft lockup whose call trace starts there is not counted.
kernel_oops_lines() {
    dmesg | awk -v fn="${LOCKUP_IN:-}" '
        pending != "" && top { if (fn == "" || index($0, " " fn "+") == 0) print pending
                               pending = ""; top = 0 }
        pending != "" && /<TASK>/ { top = 1 }
        /soft lockup/ { if (pending != "") print pending; pending = $0; top = 0; next }
        /BUG:|Oops|general protection fault|Kernel panic|blocked for more than/ { print }
        END { if (pending != "") print pending }'
}

# Fault tests (docs/faults.md). Load guest-tests/faults/$1.plan as the device's fault plan.
fault_plan() {
    host_ask "faults $1" | grep -q '"return"' || fail "the host could not load plan $1"
}

# Seconds since boot, to the hundredth; and whether $1 - $2 seconds is at least $3.
uptime_s() {
    cut -d' ' -f1 /proc/uptime
}
took_at_least() {
    awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { exit !(a - b >= m) }'
}

# How many lines of the device's fault log match the regular expression $1 (counted by the
# host: the log can be longer than a console line); expect exactly $2.
faults_logged() {
    reply=$(host_ask "fault-count $1") || fail "no answer to fault-count $1"
    n=$(echo "$reply" | sed -n 's/.*"return": *\([0-9][0-9]*\).*/\1/p')
    [ -n "$n" ] || fail "fault-count $1: $reply"
    echo "$n"
}
expect_faults_logged() {
    n=$(faults_logged "$1") || fail "cannot count the fault log's lines of '$1'"
    [ "$n" = "$2" ] || fail "the fault log has $n lines of '$1', not $2"
}

# What ice logs each time it has rebuilt the PF's VSI (once per reset it recovered from), and
# how often it has.
vsi_rebuilt_line() {
    slot=$(irdma_sim_slot) || fail "no irdma-sim function"
    echo "ice $slot: VSI rebuilt. VSI index 0, type ICE_VSI_PF"
}
vsi_rebuilds() {
    line=$(vsi_rebuilt_line) || fail "no irdma-sim function"
    dmesg_count "$line"
}

# ice rebuilt after a reset (more than $1 rebuilds) and irdma0 came back active.
expect_reset_recovery() {
    line=$(vsi_rebuilt_line) || fail "no irdma-sim function"
    wait_for "[ \$(dmesg | grep -c '$line') -gt $1 ]" 60 ||
        fail "ice did not rebuild after the reset"
    wait_for "grep -q ACTIVE /sys/class/infiniband/irdma0/ports/1/state" 60 ||
        fail "irdma0 did not come back active"
}

# With a fault plan in place, verbs-ctrl on irdma0 (GID index $1) fails cleanly at its step $2
# (its "FAIL $2" line, nothing hangs) and irdma logs the CQP error $3 (an extended regex).
verbs_ctrl_fails_at() {
    verbs_ctrl irdma0 "$1" > /tmp/verbs-ctrl-fail.out 2>&1 && fail "verbs-ctrl passed while $2 failed"
    cat /tmp/verbs-ctrl-fail.out
    grep -q "^FAIL $2" /tmp/verbs-ctrl-fail.out || fail "$2 did not fail"
    dmesg | grep -qE "$3" || fail "irdma logged no '$3'"
}

# With a fault plan in place, rdma-sqd's idle check on irdma0 (GID index $1) fails instead of
# hanging: irdma gives up after its 5 s and logs one more "modify_qp timed out waiting for
# suspend".
sqd_idle_times_out() {
    waits=$(dmesg_count "modify_qp timed out waiting for suspend") || fail "cannot count suspend timeouts"
    rdma-sqd irdma0 "$1" idle > /tmp/sqd-timeout.out 2>&1 && fail "SQD succeeded without its AE"
    cat /tmp/sqd-timeout.out
    grep -q "^FAIL idle" /tmp/sqd-timeout.out || fail "rdma-sqd did not report the idle check failed"
    [ "$(dmesg_count "modify_qp timed out waiting for suspend")" = $((waits + 1)) ] ||
        fail "irdma did not time out once waiting for the suspend AE"
}

# The end of every fault test: the plan removed, no oops, every control verb works again.
fault_test_done() {
    host_ask "faults none" > /dev/null
    oops=$(kernel_oops_lines)
    [ -z "$oops" ] || fail "the kernel oopsed: $oops"
    gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
    verbs_ctrl irdma0 "$gid" > /tmp/fault-after.out 2>&1 ||
        { cat /tmp/fault-after.out; fail "the device is not usable after the fault"; }
}

# rdma-sqd's checks on irdma0 (guest-tests/rdma-sqd.c), the named ones or both: each must
# pass with every byte verified, and irdma must log no suspend timeout or error meanwhile.
rdma_sqd_checks() {
    gid=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
    mark=$(dmesg | wc -l)
    want=$#
    [ "$want" = 0 ] && want=2
    rdma-sqd irdma0 "$gid" "$@" > /tmp/rdma-sqd.out 2>&1
    rc=$?
    cat /tmp/rdma-sqd.out
    [ "$rc" = 0 ] && grep -qx "rdma-sqd: $want passed, 0 failed" /tmp/rdma-sqd.out ||
        fail "rdma-sqd failed"
    errs=$(dmesg | tail -n +$((mark + 1)) | grep -E "irdma|infiniband" |
           grep -iE "fail|error|couldn't|unable|timeout|suspend")
    [ -z "$errs" ] || fail "irdma reported: $errs"
}

# rdma-sqd's checks (both) with the device's counts: a suspend and its AE per SQD and no
# RESUME_QP, since back to RTS is a MODIFY_QP.
sqd_round_trip() {
    before=$(suspend_counts) || fail "cannot read the suspend counts"
    rdma_sqd_checks
    after=$(suspend_counts) || fail "cannot read the suspend counts"
    set -- $before $after
    [ $(($4 - $1)) = 2 ] && [ $(($5 - $2)) = 2 ] && [ $(($6 - $3)) = 0 ] ||
        fail "device counted $(($4 - $1)) suspends, $(($5 - $2)) AEs, $(($6 - $3)) resumes; want 2, 2, 0"
}

suspend_counts() {
    s=$(host_device_prop x-rdma-suspends) || fail "no suspend count"
    a=$(host_device_prop x-rdma-suspend-aes) || fail "no suspend AE count"
    r=$(host_device_prop x-rdma-resumes) || fail "no resume count"
    echo "$s $a $r"
}

# Since the counts $1 (suspend_counts) the device made exactly $2 suspends, AEs and resumes.
# irdma may resume the last change's QPs after dcbnl has returned: the resumes have 10 s to
# come.
expect_suspend_counts() {
    counts_before=$1 want=$2
    t0=$(uptime_s) || fail "no uptime"
    while :; do
        now=$(suspend_counts) || fail "cannot read the suspend counts"
        set -- $counts_before $now
        [ $(($4 - $1)) = "$want" ] && [ $(($5 - $2)) = "$want" ] && [ $(($6 - $3)) = "$want" ] &&
            break
        t=$(uptime_s) || fail "no uptime"
        [ $(($6 - $3)) -lt "$want" ] && ! took_at_least "$t" "$t0" 10 ||
            fail "device counted $(($4 - $1)) suspends, $(($5 - $2)) AEs, $(($6 - $3)) resumes; want $want each"
        sleep 0.1
    done
    echo "device: $want suspends, suspend-complete AEs and resumes"
}

# How many events of this boot's QEMU trace (run-guest.py --trace) match the extended regular
# expression $1, counted by the host: e.g. trace_count 'irdma_sim_qp_suspend '.
trace_count() {
    host_number "trace-count $1"
}

# Mark the instant $1 (lower case, digits, dashes) on the host's clock: the harness logs the
# request with its time, so the host can place it among the trace's events (scripts/demo.py).
host_mark() {
    host_ask "mark $1" > /dev/null || fail "no answer to mark $1"
}
