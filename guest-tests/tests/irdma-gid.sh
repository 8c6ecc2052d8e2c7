# After an IPv4 address is added to the ice netdev, irdma0's GID table holds its RoCE v2 GID
# (::ffff:10.0.2.15). Only the first few entries are scanned: the table has 1024 slots.
. /tests/lib.sh
idx=$(rdma_dev_up irdma0)
echo "GID $idx: $(cat "/sys/class/infiniband/irdma0/ports/1/gids/$idx") (RoCE v2)"
