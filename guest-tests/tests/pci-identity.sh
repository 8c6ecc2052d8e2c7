# The function the guest enumerates is the E810-C we model: ids, BARs, MSI-X, PCIe, DSN.
. /tests/lib.sh
dsn=$(dsn_of_mac "${T_mac:-}") || fail "the harness did not pass t.mac"
slot=$(irdma_sim_slot) || fail "no 8086:1593 function in /sys/bus/pci/devices"
echo "irdma-sim at $slot"
pci-identity --vendor 0x8086 --device 0x1593 --subsys 8086:0002 \
    --bar0 $((32 << 20)) --bar3 65536 --msix "${T_msix:-1024}" --dsn "$dsn" ||
    fail "PCI identity differs from the model's"
