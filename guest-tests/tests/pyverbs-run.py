#!/usr/bin/env python3
"""Runs rdma-core's own test suite (the tests of Debian's python3-pyverbs, which the guest
archive "pyverbs" puts in /usr/share/rdma-core/tests) on one RDMA device, as rdma-core's
run_tests.py does, and reports each test on one line of its own:

    PV-DEVICE DEVICE GID GID_INDEX
    PV STATUS TEST_ID SECONDS [# REASON]

STATUS is ok, skip, FAIL, ERROR, xfail (an expected failure) or xpass (an unexpected success);
REASON is a skip's message or the last line of a failure's or error's traceback (the whole
traceback follows, its lines prefixed "PV-TB "). A class or module whose setup failed is
reported as TEST_ID CLASS.setUpClass (or MODULE.setUpModule). The run ends with

    PV-SUMMARY ran N ok N skip N FAIL N ERROR N xfail N xpass N seconds S

The tests' own output goes to stderr. Exit status 0 when the suite ran to its end, whatever
its results: tests/pyverbs-check.py on the host judges them.
    pyverbs-run.py DEVICE GID_INDEX [TEST_ID_PREFIX ...]
With prefixes, only the tests whose id starts with one of them run. A test whose id matches
one of the fnmatch patterns in $PYVERBS_NOT_RUN (separated by ':') is not run: it is reported
as a skip, "# not run here (PYVERBS_NOT_RUN)".

As each test starts, "pyverbs: running TEST_ID" goes to the console, so that a kernel oops or a
hang in the middle of the suite names the test it happened in.
"""
import fnmatch
import os
import re
import sys
import time
import traceback
import unittest

TESTS_PARENT = "/usr/share/rdma-core"
# The longest REASON kept on a result line.
REASON_MAX = 200
# The reason a test excluded by $PYVERBS_NOT_RUN is reported with.
NOT_RUN = "not run here (PYVERBS_NOT_RUN)"


class LineResult(unittest.TestResult):
    """One PV line per test on @out as each test ends."""

    def __init__(self, out, console):
        super().__init__()
        self.out = out
        self.console = console
        self.counts = {s: 0 for s in ("ok", "skip", "FAIL", "ERROR", "xfail", "xpass")}
        self.failed_sub = set()           # tests already reported through a failed subtest
        self.started = {}

    @staticmethod
    def name(test):
        """The test's id; a setUpClass/setUpModule failure as CLASS.setUpClass."""
        tid = test.id()
        m = re.fullmatch(r"(\w+) \(([\w.]+)\)", tid)
        return f"{m.group(2)}.{m.group(1)}" if m else tid

    def emit(self, test, status, reason="", tb=""):
        self.counts[status] += 1
        took = time.monotonic() - self.started.get(self.name(test), time.monotonic())
        reason = " ".join(reason.split())[:REASON_MAX]
        sys.stdout.flush()
        sys.stderr.flush()
        line = f"PV {status} {self.name(test)} {took:.2f}" + (f" # {reason}" if reason else "")
        tb_lines = [f"PV-TB {l}" for l in tb.rstrip().splitlines()]
        self.out.write("\n".join([line] + tb_lines) + "\n")
        self.out.flush()

    def failure(self, test, err, status):
        tb = "".join(traceback.format_exception(*err))
        last = [l for l in tb.strip().splitlines() if l.strip()]
        self.emit(test, status, last[-1] if last else "", tb)

    def startTest(self, test):
        super().startTest(test)
        self.started[self.name(test)] = time.monotonic()
        if self.console:
            self.console.write(f"pyverbs: running {self.name(test)}\n")
            self.console.flush()

    def addSuccess(self, test):
        super().addSuccess(test)
        if self.name(test) not in self.failed_sub:
            self.emit(test, "ok")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.emit(test, "skip", reason)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.failure(test, err, "FAIL")

    def addError(self, test, err):
        super().addError(test, err)
        self.failure(test, err, "ERROR")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None and self.name(test) not in self.failed_sub:
            self.failed_sub.add(self.name(test))
            status = "FAIL" if issubclass(err[0], test.failureException) else "ERROR"
            self.failure(test, err, status)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.emit(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.emit(test, "xpass")


def flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


class NotRun(unittest.TestCase):
    """Stands in for a test $PYVERBS_NOT_RUN excludes: reports it as a skip under its own id."""

    def __init__(self, test):
        super().__init__("runTest")
        self.test_id = test.id()

    def id(self):
        return self.test_id

    def runTest(self):
        raise unittest.SkipTest(NOT_RUN)


def open_console():
    """The console to write progress to, or None (not in the guest)."""
    try:
        return open("/dev/console", "w")
    except OSError:
        return None


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    dev, gid, prefixes = argv[0], argv[1], argv[2:]
    # The results keep stdout; the tests' own prints and warnings go to stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.path[:0] = [os.path.join(TESTS_PARENT, "tests"), TESTS_PARENT]
    # rdma-core's argument parser, as run_tests.py uses it: the tests read --dev/--gid from it.
    sys.argv[1:] = ["--dev", dev, "--gid", gid]
    from args_parser import parser
    parser.parse_args()
    import tests
    suite = unittest.defaultTestLoader.loadTestsFromModule(tests)
    if prefixes:
        suite = unittest.TestSuite(t for t in flatten(suite)
                                   if any(t.id().startswith(p) for p in prefixes))
    not_run = [p for p in os.environ.get("PYVERBS_NOT_RUN", "").split(":") if p]
    suite = unittest.TestSuite(NotRun(t) if any(fnmatch.fnmatchcase(t.id(), p) for p in not_run)
                               else t for t in flatten(suite))
    out.write(f"PV-DEVICE {dev} GID {gid}\n")
    result = LineResult(out, open_console())
    t0 = time.monotonic()
    suite.run(result)
    c = result.counts
    out.write(f"PV-SUMMARY ran {sum(c.values())} " + " ".join(f"{k} {v}" for k, v in c.items()) +
              f" seconds {time.monotonic() - t0:.1f}\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
