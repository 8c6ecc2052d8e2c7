# pyverbs.sh on Soft-RoCE (rdma_rxe) over the virtio NIC: run with --nic virtio.
# @@ARCHIVE pyverbs
export RDMA_DEV=rxe0
exec sh /tests/pyverbs.sh
