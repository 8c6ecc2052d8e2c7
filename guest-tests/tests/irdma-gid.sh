# After an IPv4 address is added to the ice netdev, irdma0's GID table holds its RoCE v2 GID
# (::ffff:10.0.2.15). Only the first few entries are scanned: the table has 1024 slots.
. /tests/lib.sh
ifc=$(irdma_up)
ip -4 addr show dev "$ifc" | grep -q "inet 10.0.2.15/24" || ip addr add 10.0.2.15/24 dev "$ifc"
want=0000:0000:0000:0000:0000:ffff:0a00:020f
found=""
n=0
while [ $n -lt 100 ] && [ -z "$found" ]; do
    for i in 0 1 2 3 4 5 6 7; do
        g=$(cat /sys/class/infiniband/irdma0/ports/1/gids/$i 2>/dev/null)
        t=$(cat /sys/class/infiniband/irdma0/ports/1/gid_attrs/types/$i 2>/dev/null)
        if [ "$g" = "$want" ] && [ "$t" = "RoCE v2" ]; then found=$i; break; fi
    done
    [ -n "$found" ] || sleep 0.1
    n=$((n + 1))
done
[ -n "$found" ] || fail "no RoCE v2 GID for 10.0.2.15 in irdma0's first 8 GIDs"
echo "GID $found: $want (RoCE v2)"
