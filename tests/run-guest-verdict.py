#!/usr/bin/env python3
"""scripts/run-guest.py's boot verdict on canned serial output: kernel log lines of an oops,
WARNING, ... fail the test they appeared in (or every test of the boot), unless the test
declared them with @@EXPECT-KLOG; a boot without @@DONE or with a QEMU exit status other than 0
fails every test. Exit 1 if a verdict is not the expected one."""
import importlib.util
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("run_guest",
                                              os.path.join(REPO, "scripts", "run-guest.py"))
rg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rg)

WARN = ("WARNING: CPU: 0 PID: 245 at drivers/infiniband/core/rdma_core.c:940 "
        "uverbs_destroy_ufile_hw+0x1b5/0x1c0 [ib_uverbs]")


def boot(lines, rc=0, tests=("t1", "t2")):
    """{test: [why]} for a boot of @tests whose console showed @lines."""
    g = rg.Guest.__new__(rg.Guest)
    g.tests = list(tests)
    g.results, g.marks = {}, {}
    g.in_dmesg, g.running, g.klog_test = False, None, None
    g.klog_bad, g.klog_expect = [], {}
    for line in lines:
        if line.startswith("@@DMESG-BEGIN"):
            g.in_dmesg = True
        elif line.startswith("@@DMESG-END"):
            g.in_dmesg = False
        g.klog_scan(line)
        if line.startswith("@@DONE"):
            g.marks["DONE"] = 1.0
    return g.verdicts(rc)


def run_of(t, out=(), klog=()):
    """Console lines of test @t: its output, and the kernel lines logged while it ran."""
    return ([f"@@BEGIN {t}"] + [f"[{t}] {o}" for o in out] + [f"@@RESULT {t} PASS"],
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
expect("QEMU's exit status 1 fails every test",
       boot(guest(run_of("t1"), run_of("t2")), rc=1), ["t1", "t2"])
expect("DEBUG: is not BUG:, a warning is not a WARNING:",
       boot(guest(run_of("t1", klog=["ice 0000:01:00.0: DEBUG: x", "ACPI Warning: y"]),
                  run_of("t2"))), [])
expect("a test's own output is not the kernel log",
       boot(guest(run_of("t1", out=["[ 1.0] WARNING: quoted"]), run_of("t2"))), [])
print(f"run-guest verdicts: {failures} wrong")
sys.exit(1 if failures else 0)
