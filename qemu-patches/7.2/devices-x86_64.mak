# The devices of qemu-system-x86_64 as scripts/build-qemu.sh builds it (configure
# --without-default-devices --with-devices-x86_64=irdma-sim; copied into the QEMU tree as
# configs/devices/x86_64-softmmu/irdma-sim.mak). Exactly what the harness's machine
# (scripts/qemu_cmd.py, scripts/run-guest.py) instantiates; each entry's Kconfig selects what
# it needs.
# The q35 machine and the devices it creates itself: the HPET, and the VMware port with its
# mouse (on the i8042 controller).
CONFIG_Q35=y
CONFIG_HPET=y
CONFIG_VMPORT=y
CONFIG_VMMOUSE=y
# -device pcie-root-port: the slot irdma-sim sits in.
CONFIG_PCIE_PORT=y
# -device virtio-net-pci: the Soft-RoCE peer (run-guest.py --nic/--peer-nic virtio).
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_NET=y
# -device irdma-sim (hw/Kconfig).
CONFIG_IRDMA_SIM=y
