# rdma-core's own test suite: the tests of Debian's python3-pyverbs, run by
# /tests/pyverbs-run.py on irdma0, or on RDMA_DEV (rxe0 from rxe-pyverbs.sh), on the RoCE v2 GID
# of the device's address. One line per test ("PV STATUS TEST_ID SECONDS # REASON"); the host's
# tests/pyverbs-check.py judges them against tests/pyverbs.expected. This test passes when the
# whole suite ran. The suite takes minutes under TCG: run it with --test-timeout 600.
# t.pyverbs=PREFIX[:PREFIX...] on the kernel command line (run-guest.py --append) runs only the
# tests whose id starts with one of them.
# @@ARCHIVE pyverbs
. /tests/lib.sh
dev=${RDMA_DEV:-irdma0}
command -v python3 > /dev/null || fail "no python3: the guest was booted without the pyverbs archive"
gid=$(rdma_dev_up "$dev") || fail "$dev did not come up"
# rdma_cm tests: the user-space interface to the connection manager.
modprobe rdma_ucm || fail "modprobe rdma_ucm failed"
# shellcheck disable=SC2046 # the prefixes, one word each
python3 /tests/pyverbs-run.py "$dev" "$gid" $(echo "${T_pyverbs:-}" | tr ':' ' ') \
    > /tmp/pyverbs-run.out 2>&1
rc=$?
cat /tmp/pyverbs-run.out
[ "$rc" = 0 ] || fail "pyverbs-run.py exited $rc"
grep -q '^PV-SUMMARY ' /tmp/pyverbs-run.out || fail "the suite did not run to its end"
