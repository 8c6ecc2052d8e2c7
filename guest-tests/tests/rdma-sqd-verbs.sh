# rdma-sqd's idle SQD flow (SQD on an idle RC QP waits for the device's suspend-complete AE;
# back in RTS a SEND arrives intact) for the deterministic -icount run (list determinism),
# without rdma-sqd.sh's device counters: those come from the host over QMP, a round trip whose
# timing no -icount run can reproduce. The deep check is left to rdma-sqd.sh: under -icount
# its 300 ms of RNR retries, 512 packets every 0.8 ms, cost about 250 s of host time.
. /tests/lib.sh
rdma_sqd_checks idle
