# A kernel ULP on irdma0: NVMe over RDMA, target (nvmet-rdma, a file-backed namespace) and host
# (nvme-rdma) in this guest on the device's own address. The host registers its I/O buffers with
# fast-register work requests and has them invalidated (the target's SEND with invalidate, or
# its own LOCAL_INV); the target moves the data with RDMA READ/WRITE from kernel memory (STag 0).
# 16 MiB of random data is written through the controller and read back, byte for byte, and
# found in the backing file; the controller disconnects cleanly; irdma reports nothing.
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
rdma_dev_up "$dev" > /dev/null
ip=$(rdma_dev_ip "$dev") || fail "no address for $dev"
nqn=irdma-sim-nvmeof-test
cfg=/sys/kernel/config/nvmet
modprobe nvmet-rdma && modprobe nvme-rdma || fail "cannot load nvmet-rdma / nvme-rdma"
[ -d /sys/kernel/config/nvmet ] || mount -t configfs none /sys/kernel/config
[ -d "$cfg" ] || fail "no nvmet configfs"
dd if=/dev/zero of=/tmp/nvme-ns.img bs=1M count=32 2> /dev/null
mkdir "$cfg/subsystems/$nqn" || fail "cannot create the subsystem"
echo 1 > "$cfg/subsystems/$nqn/attr_allow_any_host"
mkdir "$cfg/subsystems/$nqn/namespaces/1"
echo /tmp/nvme-ns.img > "$cfg/subsystems/$nqn/namespaces/1/device_path"
# tmpfs has no O_DIRECT in 6.1: the file backend goes through the page cache.
echo 1 > "$cfg/subsystems/$nqn/namespaces/1/buffered_io"
echo 1 > "$cfg/subsystems/$nqn/namespaces/1/enable" || fail "cannot enable the namespace"
mkdir "$cfg/ports/1"
echo rdma > "$cfg/ports/1/addr_trtype"
echo ipv4 > "$cfg/ports/1/addr_adrfam"
echo "$ip" > "$cfg/ports/1/addr_traddr"
echo 4420 > "$cfg/ports/1/addr_trsvcid"
ln -s "$cfg/subsystems/$nqn" "$cfg/ports/1/subsystems/$nqn" || fail "cannot enable the port"
echo "transport=rdma,traddr=$ip,trsvcid=4420,nqn=$nqn" > /dev/nvme-fabrics ||
    fail "connect failed: $(dmesg | grep -E 'nvme|irdma' | tail -5)"
wait_for "[ -b /dev/nvme0n1 ]" 30 || fail "no /dev/nvme0n1 after connect"
dd if=/dev/urandom of=/tmp/nvme-pattern bs=1M count=16 2> /dev/null
dd if=/tmp/nvme-pattern of=/dev/nvme0n1 bs=1M count=16 oflag=direct 2> /dev/null ||
    fail "write to /dev/nvme0n1 failed"
dd if=/dev/nvme0n1 of=/tmp/nvme-readback bs=1M count=16 iflag=direct 2> /dev/null ||
    fail "read from /dev/nvme0n1 failed"
cmp /tmp/nvme-pattern /tmp/nvme-readback || fail "data read back differs from data written"
dd if=/tmp/nvme-ns.img of=/tmp/nvme-backing bs=1M count=16 2> /dev/null
cmp /tmp/nvme-pattern /tmp/nvme-backing || fail "the target's file does not hold the data written"
echo "16 MiB written and read back through nvme-rdma over $dev: identical"
echo 1 > /sys/class/nvme/nvme0/delete_controller
wait_for "[ ! -e /dev/nvme0n1 ]" 30 || fail "controller did not go away"
rm "$cfg/ports/1/subsystems/$nqn"
rmdir "$cfg/ports/1" "$cfg/subsystems/$nqn/namespaces/1" "$cfg/subsystems/$nqn"
errs=$(irdma_error_lines; dmesg | grep -E "irdma" | grep -i "abnormal ae")
[ -z "$errs" ] || fail "irdma reported: $errs"
