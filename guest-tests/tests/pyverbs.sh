# rdma-core's own test suite: the tests of Debian's python3-pyverbs, run by
# /tests/pyverbs-run.py on irdma0, or on RDMA_DEV (rxe0 from rxe-pyverbs.sh), on the RoCE v2 GID
# of the device's address. One line per test ("PV STATUS TEST_ID SECONDS # REASON"); the host's
# tests/pyverbs-check.py judges them against tests/pyverbs.expected. This test passes when the
# whole suite ran and left no verbs object behind (the device's resource counts after it are
# those before it). The suite takes minutes under TCG: run it with --test-timeout 600.
# t.pyverbs=PREFIX[:PREFIX...] on the kernel command line (run-guest.py --append) runs only the
# tests whose id starts with one of them.
# On irdma0 the rdma_cm multicast tests are not run (reported as skips): their two processes
# leave the group at once, and irdma's detach can then use the group after the other detach
# freed it (docs/pyverbs.md, "Multicast"), a NULL write that hangs the guest.
# t.pyverbs_not_run=PATTERN[:PATTERN...] names other tests not to run (fnmatch); an empty one
# runs them all.
# @@ARCHIVE pyverbs
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
not_run=
[ "$dev" = irdma0 ] && not_run='tests.test_rdmacm.CMTestCase.test_rdmacm_async*multicast_traffic'
not_run=${T_pyverbs_not_run-$not_run}
command -v python3 > /dev/null || fail "no python3: the guest was booted without the pyverbs archive"
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
# rdma_cm tests: the user-space interface to the connection manager.
modprobe rdma_ucm || fail "modprobe rdma_ucm failed"
before=$(rdma resource show "$dev" | tr -s ' ')
case $before in *" qp "*" mr "*) ;; *) fail "no resource counts of $dev: '$before'" ;; esac
# shellcheck disable=SC2046 # the prefixes, one word each
PYVERBS_NOT_RUN=$not_run python3 /tests/pyverbs-run.py "$dev" "$gid" $(echo "${T_pyverbs:-}" | tr ':' ' ') \
    > /tmp/pyverbs-run.out 2>&1
rc=$?
cat /tmp/pyverbs-run.out
[ "$rc" = 0 ] || fail "pyverbs-run.py exited $rc"
grep -q '^PV-SUMMARY ' /tmp/pyverbs-run.out || fail "the suite did not run to its end"
# uverbs destroys what a process leaves when it exits; an object whose destroy fails there
# stays (with a kernel WARNING).
after=$(rdma resource show "$dev" | tr -s ' ')
if [ "$after" != "$before" ]; then
    rdma resource show mr dev "$dev"
    fail "the suite left verbs objects: before '$before', after '$after'"
fi
