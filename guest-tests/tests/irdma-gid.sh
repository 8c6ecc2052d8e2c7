# After an IPv4 address is added to the ice netdev, irdma0's GID table holds its RoCE v2 GID
# (::ffff:10.0.2.15). Only the first few entries are scanned: the table has 1024 slots.
. /tests/lib.sh
idx=$(rdma_dev_up irdma0) || fail "irdma0 has no RoCE v2 GID for 10.0.2.15"
gid=$(cat "/sys/class/infiniband/irdma0/ports/1/gids/$idx") || fail "no GID $idx"
[ "$gid" = 0000:0000:0000:0000:0000:ffff:0a00:020f ] || fail "GID $idx is $gid, not ::ffff:10.0.2.15"
echo "GID $idx: $gid (RoCE v2)"
