#!/usr/bin/env python3
"""Judges a run of rdma-core's own test suite in the guest (guest test pyverbs or rxe-pyverbs:
guest-tests/tests/pyverbs-run.py's "PV ..." lines in the serial log) against
tests/pyverbs.expected, the section of the device the suite ran on.

  pyverbs-check.py [--expected FILE] LOG
  pyverbs-check.py --selftest     (a unit test: canned logs judged; the expected file parses)

The expected file has a section per device ("[irdma0]", "[rxe0]") of lines

  STATUS[,STATUS...]  TEST  REASON

TEST a test id or an fnmatch pattern of ids (an exact id is looked up first, then the patterns
in file order); STATUS what the test may report: ok, skip, FAIL, ERROR, xfail, xpass (more
than one for a test whose outcome varies from run to run; the reason says why). A test no line
names must report ok. Fails (exit 1), naming each, on: a test whose status its line does not
allow (an unexpected failure, error or skip; and an expected failure that now passes, so the
file stays true), a line that names no test of the run, a log without the suite's device line
or its summary (the suite did not run to its end). Prints the counts of the run either way:

  pyverbs-check DEVICE: N tests: ok N, skip N, FAIL N, ERROR N[, ...]; N as expected, N not
"""
import argparse
import collections
import contextlib
import fnmatch
import io
import os
import re
import sys
import tempfile

STATUSES = ("ok", "skip", "FAIL", "ERROR", "xfail", "xpass")
RESULT = re.compile(r"PV (ok|skip|FAIL|ERROR|xfail|xpass) (\S+) [0-9.]+(?: # (.*))?$")
DEVICE = re.compile(r"PV-DEVICE (\S+) ")
SUMMARY = re.compile(r"PV-SUMMARY ran (\d+) ")
DEFAULT_EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyverbs.expected")


def read_expected(path):
    """{device: [(statuses, test, reason, line number)]} in file order."""
    sections, dev = collections.defaultdict(list), None
    for n, raw in enumerate(open(path), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"\[(\S+)\]", line)
        if m:
            dev = m.group(1)
            sections[dev]
            continue
        parts = line.split(None, 2)
        statuses = parts[0].split(",")
        if dev is None or len(parts) < 3 or not set(statuses) <= set(STATUSES):
            raise ValueError(f"{path}:{n}: not 'STATUS[,STATUS] TEST REASON' in a [DEVICE] "
                             f"section: {raw.rstrip()}")
        sections[dev].append((set(statuses), parts[1], parts[2], n))
    return sections


def read_log(path):
    """(device, {test: (status, reason)} in run order, tests the summary says ran or None)."""
    device, results, ran = None, {}, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = RESULT.search(line)
        if m:
            results[m.group(2)] = (m.group(1), m.group(3) or "")
            continue
        m = DEVICE.search(line)
        if m:
            device = m.group(1)
        m = SUMMARY.search(line)
        if m:
            ran = int(m.group(1))
    return device, results, ran


def entry_of(test, entries):
    for e in entries:
        if e[1] == test:
            return e
    for e in entries:
        if fnmatch.fnmatchcase(test, e[1]):
            return e
    return None


def judge(expected, log):
    """Prints the verdict on serial log @log against the expected file @expected; 0 if sound."""
    try:
        sections = read_expected(expected)
    except ValueError as e:
        print(f"pyverbs-check: {e}")
        return 1
    a = argparse.Namespace(expected=expected, log=log)
    device, results, ran = read_log(a.log)
    if device is None:
        print(f"pyverbs-check: {a.log} has no PV-DEVICE line: the suite never started")
        return 1
    if device not in sections:
        print(f"pyverbs-check: {a.expected} has no [{device}] section")
        return 1
    entries = sections[device]
    bad = []
    if ran is None:
        bad.append("the suite did not run to its end (no PV-SUMMARY line)")
    elif ran != len(results):
        bad.append(f"the summary says {ran} tests ran, the log has {len(results)} results")
    used, unexpected = set(), 0
    for test, (status, reason) in results.items():
        e = entry_of(test, entries)
        allowed = e[0] if e else {"ok"}
        if e:
            used.add(e[3])
        if status in allowed:
            continue
        unexpected += 1
        where = f" ({os.path.basename(a.expected)}:{e[3]}: {'/'.join(sorted(e[0]))})" if e else ""
        if status == "ok":
            bad.append(f"{test}: now passes{where}: remove it from the expected file")
        else:
            bad.append(f"{test}: {status}{' # ' + reason if reason else ''}{where}")
    for statuses, test, _, n in entries:
        if n not in used:
            bad.append(f"{os.path.basename(a.expected)}:{n}: [{device}] {test} names no test "
                       f"of this run")
    for b in bad:
        print(f"pyverbs-check: unexpected: {b}")
    counts = collections.Counter(s for s, _ in results.values())
    shown = ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s] or s in STATUSES[:4])
    print(f"pyverbs-check {device}: {len(results)} tests: {shown}; "
          f"{len(results) - unexpected} as expected, {unexpected} not")
    return 1 if bad else 0


SELFTEST_EXPECTED = """
[dev0]
FAIL     tests.test_a.A.test_bad      the device does this
ok,FAIL  tests.test_a.A.test_flaky    varies
skip     tests.test_m_*               not this provider
"""
SELFTEST_RUN = ["PV-DEVICE dev0 GID 1", "PV ok tests.test_a.A.test_good 0.10",
                "PV FAIL tests.test_a.A.test_bad 0.20 # AssertionError: 1 != 2",
                "PV ok tests.test_a.A.test_flaky 0.30", "PV skip tests.test_m_x.M.test_1 0.00 # no",
                "PV-SUMMARY ran 4 ok 2 skip 1 FAIL 1 ERROR 0 xfail 0 xpass 0 seconds 1.0"]


def selftest():
    """The checker on canned logs: (name, log lines, whether it must pass)."""
    run = SELFTEST_RUN
    cases = [
        ("the run as expected", run, True),
        ("a noisy prefix (serial log, test output without a newline)",
         [f"[  1.0] [pyverbs] {l}" if i % 2 else f"[  1.0] [pyverbs] noise{l}"
          for i, l in enumerate(run)], True),
        ("an unexpected failure", run[:1] + ["PV FAIL tests.test_a.A.test_good 0.1 # x"] +
         run[2:], False),
        ("an unexpected skip", run[:1] + ["PV skip tests.test_a.A.test_good 0.1 # x"] + run[2:],
         False),
        ("an expected failure that now passes", run[:2] + ["PV ok tests.test_a.A.test_bad 0.2"] +
         run[3:], False),
        ("an expected line that names no test of the run", [run[0], run[1], run[3], run[4],
         "PV-SUMMARY ran 3 ok 2 skip 1"], False),
        ("no summary: the suite did not run to its end", run[:-1], False),
        ("no device line: the suite never started", run[1:], False),
        ("a device without a section", ["PV-DEVICE dev1 GID 1"] + run[1:], False),
    ]
    wrong = 0
    with tempfile.TemporaryDirectory() as d:
        exp, log = os.path.join(d, "expected"), os.path.join(d, "log")
        with open(exp, "w") as f:
            f.write(SELFTEST_EXPECTED)
        for name, lines, passes in cases:
            with open(log, "w") as f:
                f.write("\n".join(lines) + "\n")
            with contextlib.redirect_stdout(io.StringIO()) as out:
                rc = judge(exp, log)
            ok = (rc == 0) == passes
            wrong += not ok
            print(f"{'ok' if ok else 'FAIL'} {name}: "
                  f"{'passes' if rc == 0 else 'fails'}" + ("" if ok else "\n" + out.getvalue()))
    try:
        sections = read_expected(DEFAULT_EXPECTED)
        ok = bool(sections.get("irdma0")) and bool(sections.get("rxe0"))
        print(f"{'ok' if ok else 'FAIL'} {os.path.basename(DEFAULT_EXPECTED)} parses, with "
              "[irdma0] and [rxe0] sections")
    except (OSError, ValueError) as e:
        ok = False
        print(f"FAIL {e}")
    wrong += not ok
    print(f"pyverbs-check selftest: {wrong} wrong")
    return 1 if wrong else 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--expected", default=DEFAULT_EXPECTED)
    p.add_argument("--selftest", action="store_true")
    p.add_argument("log", nargs="?")
    a = p.parse_args(argv)
    if a.selftest:
        return selftest()
    if not a.log:
        p.error("give the serial LOG of a pyverbs or rxe-pyverbs boot")
    return judge(a.expected, a.log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
