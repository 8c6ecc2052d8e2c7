# Control-plane verbs through the real driver and rdma-core: PD, MRs (one large enough to need a
# PBL), a memory window (refused where the kernel's irdma offers none: offers_mw), CQ, an RC QP to RTS, a UD QP, an address handle; all destroyed again,
# and the device finds nothing left behind when irdma is unloaded.
. /tests/lib.sh
idx=$(rdma_dev_up irdma0) || fail "irdma0 did not come up"
verbs_ctrl irdma0 "$idx" || fail "a control-plane verb failed"
leaked0=$(host_device_prop x-rdma-leaked) || fail "no leak count"
irdma_unload || fail "rmmod irdma failed"
[ "$(host_device_prop x-rdma-leaked)" = "$leaked0" ] || fail "objects left alive after the verbs test"
errs=$(irdma_error_lines)
[ -z "$errs" ] || fail "irdma reported: $errs"
