# perftest between two guests on one wire (harness --peer-tests): role a runs each tool's
# server, role b its client, on the pair's NIC (irdma0 on irdma-sim, rxe0 on virtio-net).
# t.perftest as in rdma-perftest (TOOL[:BYTES[:ITERATIONS]],...; default ib_write_bw,
# ib_write_lat); role b prints each result as rdma-perftest does (scripts/bench-rdma.sh).
. /tests/lib.sh
ifc=$(pair_up) || fail "the pair did not come up"
case "${T_nic:-irdma-sim}" in
    virtio) dev=rxe0 ;;
    *) dev=irdma0 ;;
esac
rdma_attach "$dev" "$ifc"
gid=$(roce_gid_index "$dev" "$T_ip") || fail "no RoCE v2 GID for $T_ip on $dev"
# Each tool's meeting has a port of its own: a's server listens before b's client starts.
port=18700
for spec in $(echo "${T_perftest:-ib_write_bw,ib_write_lat}" | tr ',' ' '); do
    perftest_spec "$spec"
    port=$((port + 1))
    perftest_opts "$PT_TOOL"
    # shellcheck disable=SC2086
    set -- "$PT_TOOL" -d "$dev" -x "$gid" -s "$PT_BYTES" -n "$PT_ITERS" $PT_OPTS
    case "$T_role" in
        a) timeout 120 "$@" > "/tmp/$PT_TOOL.server" 2>&1 &
           srv=$!
           wait_tcp_listen 18515 20 || { cat "/tmp/$PT_TOOL.server"; fail "$PT_TOOL server never listened"; }
           pair_meet "$port" || fail "the peer never met at port $port"
           wait "$srv" || { cat "/tmp/$PT_TOOL.server"; fail "$PT_TOOL server failed"; }
           echo "$PT_TOOL $dev: server done" ;;
        b) pair_meet "$port" || fail "the peer never met at port $port"
           timeout 120 "$@" "$T_peer" > "/tmp/$PT_TOOL.client" 2>&1 ||
               { cat "/tmp/$PT_TOOL.client"; fail "$PT_TOOL client failed"; }
           perftest_report "$PT_TOOL" "$dev" "$PT_BYTES" "$PT_ITERS" "/tmp/$PT_TOOL.client" ;;
        *) fail "unknown role '$T_role'" ;;
    esac
done
