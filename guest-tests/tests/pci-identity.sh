# The function the guest enumerates is the E810-C we model (emu/ids.h, hw/irdma-sim.c): ids,
# revision 02 and class 020000 (Ethernet controller) as on the real part, BARs, MSI-X (table at
# BAR3+0, PBA at BAR3+0x8000), PCIe, DSN.
. /tests/lib.sh
dsn=$(dsn_of_mac "${T_mac:-}") || fail "the harness did not pass t.mac"
slot=$(irdma_sim_slot) || fail "no 8086:1593 function in /sys/bus/pci/devices"
echo "irdma-sim at $slot"
pci-identity --vendor 0x8086 --device 0x1593 --subsys 8086:0002 --revision 0x02 \
    --class 0x020000 --bar0 $((32 << 20)) --bar3 65536 --msix "${T_msix:-1024}" \
    --msix-table 0 --msix-pba 0x8000 --dsn "$dsn" ||
    fail "PCI identity differs from the model's"
