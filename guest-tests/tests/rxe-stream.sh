# rdma-stream.sh on Soft-RoCE (rdma_rxe) over the virtio NIC: run with --nic virtio.
export RDMA_DEV=rxe0
exec sh /tests/rdma-stream.sh
