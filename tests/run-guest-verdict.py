#!/usr/bin/env python3
"""scripts/run-guest.py's boot verdict on canned serial output: kernel log lines of an oops,
WARNING, ... fail the test they appeared in (or every test of the boot), unless the test
declared them with @@EXPECT-KLOG; a boot without @@DONE or with a QEMU exit status other than 0
fails every test; the guest's KTAP results and plan are read, and the JUnit report has one
testcase per test asked for, each one that did not pass with its reasons and output tail; the
guest archives a test declares are appended to the initramfs it boots.
Exit 1 if a verdict is not the expected one."""
import argparse
import collections
import contextlib
import importlib.util
import io
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("run_guest",
                                              os.path.join(REPO, "scripts", "run-guest.py"))
rg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rg)

WARN = ("WARNING: CPU: 0 PID: 245 at drivers/infiniband/core/rdma_core.c:940 "
        "uverbs_destroy_ufile_hw+0x1b5/0x1c0 [ib_uverbs]")


def guest_of(lines, tests=("t1", "t2")):
    """A harness Guest of @tests that has read the console @lines (one second apart)."""
    g = rg.Guest.__new__(rg.Guest)
    g.a = argparse.Namespace(peer_tests=[])
    g.tests = list(tests)
    g.results, g.marks, g.begun, g.took, g.plan = {}, {}, {}, {}, None
    g.output = collections.defaultdict(lambda: collections.deque(maxlen=rg.JUNIT_TAIL))
    g.in_dmesg, g.running, g.klog_test = False, None, None
    g.klog_bad, g.klog_where, g.klog_unripped, g.klog_expect = [], {}, None, {}
    g.driver_klog = collections.defaultdict(lambda: collections.deque(maxlen=rg.DRIVER_KLOG_TAIL))
    for now, line in enumerate(lines):
        if line.startswith("@@DMESG-BEGIN"):
            g.in_dmesg = True
        elif line.startswith("@@DMESG-END"):
            g.in_dmesg = False
        g.klog_scan(line)
        if not g.in_dmesg:
            g.ktap(line, float(now))
        if line.startswith("@@DONE"):
            g.marks["DONE"] = 1.0
    return g


def boot(lines, rc=0, tests=("t1", "t2")):
    """{test: [why]} for a boot of @tests whose console showed @lines."""
    return guest_of(lines, tests).verdicts(rc)


def run_of(t, out=(), klog=(), result=None):
    """Console lines of test @t: its output, and the kernel lines logged while it ran."""
    result = result or f"ok {int(t[1:]) if t[1:].isdigit() else 1} {t}"
    return ([f"@@BEGIN {t}"] + [f"[{t}] {o}" for o in out] + [result],
            [f"[   1.000000] @@TEST-BEGIN {t}"] + [f"[   2.000000] {k}" for k in klog] +
            [f"[   3.000000] @@TEST-END {t}"])


def guest(*runs, before=(), after=(), done=True, console=()):
    lines, dmesg = [], [f"[   0.500000] {k}" for k in before]
    for con, dm in runs:
        lines += con
        dmesg += dm
    dmesg += [f"[   9.000000] {k}" for k in after]
    lines += list(console) + ["@@DMESG-BEGIN"] + dmesg + ["@@DMESG-END"]
    return lines + (["@@DONE uptime=10"] if done else [])


failures = 0


def expect(name, why, failing):
    global failures
    got = sorted(t for t, w in why.items() if w)
    ok = got == sorted(failing)
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} {name}: failing {got}, want {sorted(failing)}"
          + ("" if ok else f": {why}"))


expect("a clean boot", boot(guest(run_of("t1", klog=["irdma: probe"]), run_of("t2"))), [])
expect("a WARNING in t1's run fails t1 only",
       boot(guest(run_of("t1", klog=[WARN]), run_of("t2"))), ["t1"])
expect("... unless t1 declared that line",
       boot(guest(run_of("t1", out=[r"@@EXPECT-KLOG WARNING: CPU: \d+ PID: \d+ at "
                                     r"drivers/infiniband/core/rdma_core\.c:\d+ "
                                     r"uverbs_destroy_ufile_hw\+0x[0-9a-f]+/0x[0-9a-f]+ "
                                     r"\[ib_uverbs\]"], klog=[WARN]),
                  run_of("t2"))), [])
expect("a declaration matches whole lines only",
       boot(guest(run_of("t1", out=["@@EXPECT-KLOG WARNING: CPU"], klog=[WARN]),
                  run_of("t2"))), ["t1"])
expect("another test's declaration does not excuse it",
       boot(guest(run_of("t1", klog=[WARN]), run_of("t2", out=["@@EXPECT-KLOG WARNING: .*"]))),
       ["t1"])
expect("a bad declaration fails its test",
       boot(guest(run_of("t1", out=["@@EXPECT-KLOG WARNING: ("]), run_of("t2"))), ["t1"])
for bad in ("BUG: kernel NULL pointer dereference, address: 0000000000000008",
            "Oops: 0000 [#1] PREEMPT SMP NOPTI", "UBSAN: shift-out-of-bounds in x.c:1:2",
            "BUG: KASAN: use-after-free in irdma_foo+0x1/0x2",
            "INFO: task kworker/0:1:12 blocked for more than 120 seconds.",
            "rcu: INFO: rcu_sched self-detected stall on CPU",
            "list_add corruption. prev->next should be next (ffff), but was 0000.",
            "list_del corruption, ffff->next is LIST_POISON1 (dead000000000100)"):
    expect(f"'{bad[:40]}' in t2's run fails t2", boot(guest(run_of("t1"),
                                                            run_of("t2", klog=[bad]))), ["t2"])
expect("a WARNING before the tests fails every test",
       boot(guest(run_of("t1"), run_of("t2"), before=[WARN])), ["t1", "t2"])
expect("a WARNING after the tests fails every test",
       boot(guest(run_of("t1"), run_of("t2"), after=[WARN])), ["t1", "t2"])
con, _ = run_of("t2")
expect("a BUG on the console while t2 ran, then no @@DONE: every test",
       boot(run_of("t1")[0] + con[:1] + ["[   5.000000] BUG: unable to handle page fault"]),
       ["t1", "t2"])
why = boot(run_of("t1")[0] + con[:1] + ["[   5.000000] BUG: unable to handle page fault"])
expect("... and t2's reasons name the line",
       {t: [w for w in why[t] if "page fault" in w] for t in why}, ["t2"])
oops = ["BUG: kernel NULL pointer dereference, address: 0000000000000000",
        "Oops: Oops: 0002 [#1] SMP NOPTI",
        "RIP: 0010:irdma_access_mcast_grp+0x70/0x300 [irdma]",
        "RIP: 0033:0x7fefca1cfd6b",
        "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
        "RIP: 0010:native_queued_spin_lock_slowpath+0x6b/0x2b0"]
why = boot(guest(run_of("t1"), run_of("t2", klog=oops)))
want = [f"kernel log: {oops[0]} (RIP irdma_access_mcast_grp+0x70/0x300 [irdma])",
        f"kernel log: {oops[1]}",
        f"kernel log: {oops[4]} (RIP native_queued_spin_lock_slowpath+0x6b/0x2b0)"]
expect("an oops' first line names the kernel RIP that followed it, a later report its own",
       {t: ["those reasons"] if why[t] == want else [] for t in why}, ["t2"])
lockup = "watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [sh:1811]"
warn = [WARN, "RIP: 0010:uverbs_destroy_ufile_hw+0xd3/0xf0 [ib_uverbs]"]
t2_run = run_of("t2", klog=[lockup, "RIP: 0010:delay_tsc+0x33/0xa0"])
t2_run[0].insert(1, f"[  20.000000] {lockup}")        # on the console while t2 ran
why = boot(guest(run_of("t1", klog=warn), t2_run))
expect("a report the console showed without its RIP gets its own from the kernel log, not an "
       "earlier report's", {t: ["that RIP"] if f"kernel log: {lockup} (RIP delay_tsc+0x33/0xa0)"
                            in why[t] else [] for t in why}, ["t2"])
expect("QEMU's exit status 1 fails every test",
       boot(guest(run_of("t1"), run_of("t2")), rc=1), ["t1", "t2"])
expect("DEBUG: is not BUG:, a warning is not a WARNING:",
       boot(guest(run_of("t1", klog=["ice 0000:01:00.0: DEBUG: x", "ACPI Warning: y"]),
                  run_of("t2"))), [])
expect("a test's own output is not the kernel log",
       boot(guest(run_of("t1", out=["[ 1.0] WARNING: quoted"]), run_of("t2"))), [])


def junit(lines, rc=0, tests=("t1", "t2")):
    """{test: failure text or None} of the JUnit report of that boot."""
    g = guest_of(lines, tests)
    with contextlib.redirect_stdout(io.StringIO()):
        g.settle(rc, False)
    suite = rg.junit_suite(g, "kernel x: canned")
    cases = {c.get("name"): c.find("failure") for c in suite.iter("testcase")}
    return {t: None if f is None else f.get("message") + "\n" + (f.text or "")
            for t, f in cases.items()}


def expect_junit(name, got, want):
    """@want: {test: None (passed) or a string its failure text must contain}."""
    global failures
    ok = set(got) == set(want) and all(
        (got[t] is None) if w is None else (got[t] is not None and w in got[t])
        for t, w in want.items())
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} junit: {name}" + ("" if ok else f": got {got}"))


ktap = ["KTAP version 1", "1..2"]
expect_junit("a clean boot: every test a passed testcase",
             junit(ktap + guest(run_of("t1"), run_of("t2"))), {"t1": None, "t2": None})
expect_junit("not ok: the reason and the test's output tail",
             junit(ktap + guest(run_of("t1", out=["step 1 fine", "payload mismatch at 4096"],
                                       result="not ok 1 t1 # rc=1: payload mismatch at 4096"),
                                run_of("t2"))),
             {"t1": "step 1 fine\npayload mismatch at 4096", "t2": None})
expect_junit("a timeout is a failure that says so",
             junit(ktap + guest(run_of("t1", result="not ok 1 t1 # TIMEOUT after 120s"),
                                run_of("t2"))), {"t1": "TIMEOUT after 120s", "t2": None})
expect_junit("a test that never reported (crash) is a failed testcase, not absent",
             junit(ktap + run_of("t1")[0] + ["@@BEGIN t2", "[t2] working"], rc=0),
             {"t1": "@@DONE", "t2": "no result"})
expect_junit("a kernel WARNING in t2's run fails t2 though it said ok",
             junit(ktap + guest(run_of("t1"), run_of("t2", klog=[WARN]))),
             {"t1": None, "t2": "kernel log: WARNING"})
expect_junit("a KTAP plan other than the tests asked for fails every test",
             junit(["KTAP version 1", "1..1"] + guest(run_of("t1"), run_of("t2"))),
             {"t1": "KTAP 1..1", "t2": "KTAP 1..1"})
expect_junit("a test's output line that looks like KTAP is output, not a result",
             junit(ktap + guest(run_of("t1", out=["ok 2 t2"], result="not ok 1 t1 # rc=1: x"),
                                run_of("t2"))), {"t1": "rc=1", "t2": None})


def settle_output(lines, tests=("t1", "t2")):
    """What the harness prints when the boot of @tests whose console showed @lines ends."""
    g = guest_of(lines, tests)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        g.settle(0, False)
    return out.getvalue()


def expect_printed(name, got, want, not_want):
    global failures
    ok = all(w in got for w in want) and not any(n in got for n in not_want)
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} printed: {name}" + ("" if ok else f": got {got!r}"))


printed = settle_output(guest(
    run_of("t1", klog=["ice 0000:00:03.0: t1's line"]),
    run_of("t2", klog=["ice 0000:00:03.0: NIC Link is Down", "ACPI: not a driver's",
                       "infiniband irdma0: port down"], result="not ok 2 t2 # rc=1: FAIL: x"),
    run_of("t3", klog=["irdma 0000:00:03.0: t3's line"], result="not ok 3 t3 # rc=1: FAIL: y")),
    tests=("t1", "t2", "t3"))
expect_printed("the first failed test's driver lines, no other test's, no other source's",
               printed, ["kernel log of t2", "| ice 0000:00:03.0: NIC Link is Down",
                         "| infiniband irdma0: port down"],
               ["t1's line", "t3's line", "ACPI"])
expect_printed("no driver lines when every test passed",
               settle_output(guest(run_of("t1", klog=["ice 0000:00:03.0: a"]), run_of("t2"))),
               [], ["kernel log of"])


def check_archives():
    """Guest archives: the tests' "# @@ARCHIVE NAME" lines, each archive once; the initramfs
    booted is the guest's own with the archives' bytes appended, and the guest's own alone when
    no test declares one."""
    global failures
    got = rg.test_archives(["pyverbs", "rxe-pyverbs", "rdma-verify"])
    ok = got == ["pyverbs"] and rg.test_archives(["rdma-verify"]) == []
    with tempfile.TemporaryDirectory() as d:
        base, part = os.path.join(d, "initramfs.cpio.gz"), os.path.join(d, "extra.cpio.gz")
        for path, data in ((base, b"guest"), (part, b"archive")):
            with open(path, "wb") as f:
                f.write(data)
        script = os.path.join(d, "build-pyverbs.sh")
        with open(script, "w") as f:
            f.write(f"echo {part}\n")
        saved = rg.BUILD, rg.archive_script
        rg.BUILD, rg.archive_script = d, lambda name: script
        try:
            a = argparse.Namespace(initrd=base, slug="k")
            os.makedirs(os.path.join(d, "guest", "k"))
            with open(rg.initrd_for(a, ["rdma-verify", "pyverbs"]), "rb") as f:
                ok = ok and f.read() == b"guestarchive"
            ok = ok and rg.initrd_for(a, ["rdma-verify"]) == base
        finally:
            rg.BUILD, rg.archive_script = saved
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} guest archives: declared {got}, appended to the initramfs")


check_archives()
print(f"run-guest verdicts: {failures} wrong")
sys.exit(1 if failures else 0)
