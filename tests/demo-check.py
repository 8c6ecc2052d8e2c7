#!/usr/bin/env python3
"""Asserts every step's verdict from the demo's output (scripts/irdma-sim demo, scripts/demo.py).

    demo-check.py OUTPUT            check a recorded demo output
    demo-check.py --run [OPTIONS]   run scripts/irdma-sim demo OPTIONS (one boot), check its output
    demo-check.py --selftest OUTPUT the checks fail on altered copies of a passing OUTPUT, and
                                    the demo's bad input (an unknown option, an unwritable
                                    picture path, no gnuplot) gives one message while the
                                    other steps still finish (--replay of a made-up log)

Checks on the summary (from the last "== summary" line): every step PASS; the traffic verified (bytes > 0, 0 mismatches, 0
errors); the device's SUSPEND_QP, AE 0x0900 and RESUME_QP counts each equal to the QPs
suspended (> 0), WS nodes removed and added; the SQD round trip done; the fault injected
(fired at least once) and the driver's reaction seen ("timed out waiting for suspend"). Prints
one PASS or FAIL line per check and "N passed, N failed"; exit 0 only if all passed.
"""
import datetime
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(REPO, "scripts", "demo.py")
STEPS = ("demo-probe", "demo-tc-change", "demo-sqd", "demo-fault")
DEVICE = re.compile(r"device: (\d+) QPs, (\d+) SUSPEND_QP, (\d+) AE 0x0900, (\d+) RESUME_QP, "
                    r"WS (\d+) nodes removed, (\d+) added")
TRAFFIC = re.compile(r"traffic: (\d+) pairs, (\d+) messages, (\d+) bytes .*?, (\d+) mismatches, "
                     r"(\d+) errors, longest stall ([0-9.]+) s")
FAULT = re.compile(r"fault: (\S+) injected, fired (\d+) time")
DRIVER = re.compile(r"driver: .*timed out waiting for suspend")


def summary_of(text):
    """The demo output's summary (from its last "== summary" line), or ""."""
    at = text.rfind("\n== summary\n")
    return text[at:] if at >= 0 else ""


def checks(text):
    """[(ok, what)] for a demo output: its summary's facts."""
    out = [(bool(summary_of(text)), "a summary")]
    text = summary_of(text)
    for step in STEPS:
        out.append((re.search(rf"^PASS\s+{step}\s", text, re.M) is not None,
                    f"step {step} passed"))
    m = TRAFFIC.search(text)
    out.append((bool(m) and int(m.group(3)) > 0 and m.group(4) == "0" and m.group(5) == "0",
                "traffic verified: " + (f"{m.group(3)} bytes, {m.group(4)} mismatches, "
                                        f"{m.group(5)} errors, longest stall {m.group(6)} s"
                                        if m else "no traffic line")))
    m = DEVICE.search(text)
    if m:
        qps, sus, ae, res, wsd, wsa = (int(g) for g in m.groups())
        out.append((qps > 0 and sus == ae == res == qps,
                    f"device counts per QP: {qps} QPs, {sus} SUSPEND_QP, {ae} AE 0x0900, "
                    f"{res} RESUME_QP"))
        out.append((wsd > 0 and wsa > 0, f"WS tree rebuilt: {wsd} nodes removed, {wsa} added"))
    else:
        out.append((False, "device counts per QP: no device line"))
        out.append((False, "WS tree rebuilt: no device line"))
    out.append((re.search(r"^PASS\s+demo-sqd\s+SQD round trip done", text, re.M) is not None,
                "SQD round trip done"))
    m = FAULT.search(text)
    out.append((bool(m) and int(m.group(2)) >= 1,
                f"fault injected: {m.group(1)} fired {m.group(2)}" if m else
                "fault injected: no fault line"))
    out.append((DRIVER.search(text) is not None, "the driver's reaction seen"))
    out.append((re.search(rf"^demo: {len(STEPS)} of {len(STEPS)} steps passed", text, re.M)
                is not None, "the demo's own count"))
    return out


def report(results):
    for ok, what in results:
        print(f"{'PASS' if ok else 'FAIL':7} {what}")
    bad = sum(1 for ok, _ in results if not ok)
    print(f"{len(results) - bad} passed, {bad} failed")
    return 1 if bad else 0


# Altered copies of a passing output, each of which some check must fail.
MUTATIONS = [
    ("a failed step", r"^PASS(\s+demo-sqd)", r"FAIL\1"),
    ("a payload mismatch", r"(\d+ bytes .*?), 0 mismatches", r"\1, 1 mismatches"),
    ("no bytes moved", r"(\d+ messages, )\d+ bytes", r"\g<1>0 bytes"),
    ("a QP not resumed", r"(\d+) RESUME_QP", lambda m: f"{int(m.group(1)) - 1} RESUME_QP"),
    ("an AE missing", r"(\d+) AE 0x0900", lambda m: f"{int(m.group(1)) - 1} AE 0x0900"),
    ("no WS node added", r"removed, \d+ added", "removed, 0 added"),
    ("no SQD round trip", r"SQD round trip done", "SQD round trip not done"),
    ("the fault not fired", r"fired \d+ time", "fired 0 time"),
    ("no driver reaction", r"driver: .*", "driver: no reaction seen"),
]

# A made-up demo log and trace (the shapes scripts/run-guest.py and QEMU write) for --replay.
FAKE_LOG = """# qemu-system-x86_64 ...
# t0 1000.000000 (wall clock, seconds since the epoch)
[   1.000] Linux version 0.0-fake (made up)
[   2.000] @@BEGIN demo-probe
[   3.000] [demo-probe] irdma0 ACTIVE with 1 QP (QP1, the GSI QP of RDMA CM)
[   3.001] ok 1 demo-probe
[   4.000] @@BEGIN demo-tc-change
[   5.000] @@HOST 1.1 mark tc-change-begin
[   6.000] @@HOST 1.2 mark tc-change-end
[   7.000] [demo-tc-change] rdma-stream: 1 qps, 10 messages, 1000 bytes, 0 errors, 0 stalls
[   7.001] [demo-tc-change] rdma-stream: 0 payload mismatches, longest wait for a completion 0.1 s (qp 0)
[   7.002] ok 2 demo-tc-change
[   8.000] @@BEGIN demo-sqd
[   8.001] [demo-sqd] SQD round trip done: made up
[   8.002] ok 3 demo-sqd
[   9.000] @@BEGIN demo-fault
[   9.001] [demo-fault] fault injected: suspend-ae-lost fired 1 time (the device's fault log)
[   9.002] [demo-fault] driver reaction (dmesg): irdma0: modify_qp timed out waiting for suspend. made up
[   9.003] ok 4 demo-fault
"""
FAKE_TRACE = "".join(f"1@{1000 + t:.6f}:{line}\n" for t, line in [
    (4.9, "irdma_sim_qp_modify qp=3 RTR -> RTS dest_qp=4 qs=0"),
    (4.95, "irdma_sim_sq_complete qp=3 wqe=0 op=0x00"),
    (5.1, "irdma_sim_qp_suspend qp=1 in RTS"), (5.1, "irdma_sim_qp_suspend qp=3 in RTS"),
    (5.1, "irdma_sim_qp_suspend qp=4 in RTS"),
    (5.2, "irdma_sim_qp_ae qp=1 ae=0x900 src=0 posted"),
    (5.2, "irdma_sim_qp_ae qp=3 ae=0x900 src=0 posted"),
    (5.2, "irdma_sim_qp_ae qp=4 ae=0x900 src=0 posted"),
    (5.3, "irdma_sim_ws_delete node 5 (parent 2)"),
    (5.4, "irdma_sim_ws_add node 6 parent 2 leaf vsi=0 tc=1 weight=1 enabled qs_handle=6"),
    (5.5, "irdma_sim_qp_resume qp=1 qs=0 in RTS"), (5.5, "irdma_sim_qp_resume qp=3 qs=0 in RTS"),
    (5.5, "irdma_sim_qp_resume qp=4 qs=0 in RTS"),
    (5.6, "irdma_sim_sq_complete qp=3 wqe=1 op=0x00"),
    (9.0, "irdma_sim_fault_fired rule suspend-ae-lost: ae 0x900 qp=5 -> drop"),
])


# The same trace as QEMU 11.1 writes it: an ISO 8601 UTC time before each event.
FAKE_TRACE_ISO = "".join(
    f"{datetime.datetime.fromtimestamp(float(stamp), datetime.timezone.utc):%Y-%m-%dT%H:%M:%S.%f}Z "
    f"{event}" for stamp, event in (line.split("@", 1)[1].split(":", 1)
                                    for line in FAKE_TRACE.splitlines(keepends=True)))


def run_demo(args, env=None):
    return subprocess.run([sys.executable, DEMO] + args, capture_output=True, text=True,
                          env=env)


def bad_input_checks(tmp):
    """[(ok, what)]: the demo's bad input, each one message, the other steps finishing."""
    out = []
    r = run_demo(["--frobnicate"])
    out.append((r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and
                "unknown option '--frobnicate'" in r.stderr and not r.stdout,
                f"an unknown option: exit {r.returncode}, one line: {r.stderr.strip()!r}"))
    log = os.path.join(tmp, "demo.log")
    with open(log, "w") as f:
        f.write(FAKE_LOG)
    with open(log + ".trace", "w") as f:
        f.write(FAKE_TRACE)
    cases = [("an unwritable picture path", ["--picture", os.path.join(tmp, "no", "dir.svg")],
              None, "no directory"),
             ("no gnuplot", ["--picture", os.path.join(tmp, "p.svg")],
              {**os.environ, "PATH": os.path.join(tmp, "empty-path")}, "gnuplot not found")]
    for what, args, env, says in cases:
        r = run_demo(["--replay", log] + args, env)
        msgs = r.stderr.strip().splitlines()
        out.append((r.returncode == 1 and len(msgs) == 1 and says in msgs[0] and
                    "demo: 4 of 4 steps passed" in r.stdout and
                    re.search(r"^SKIP\s+picture\s+not drawn", r.stdout, re.M) is not None,
                    f"{what}: exit {r.returncode}, one message "
                    f"{msgs[0] if len(msgs) == 1 else msgs!r}, the steps reported"))
    return out


def trace_format_checks(tmp):
    """[(ok, what)]: the device's counts read alike from QEMU 7.2's and QEMU 11.1's trace lines;
    a trace without them (a format the demo cannot read) reported, not a crash."""
    counts, runs = {}, {}
    for fmt, trace in (("7.2", FAKE_TRACE), ("11.1", FAKE_TRACE_ISO), ("empty", "")):
        log = os.path.join(tmp, f"trace-{fmt}.log")
        with open(log, "w") as f:
            f.write(FAKE_LOG)
        with open(log + ".trace", "w") as f:
            f.write(trace)
        runs[fmt] = run_demo(["--replay", log, "--picture", os.path.join(tmp, f"trace-{fmt}.svg")])
        m = re.search(r"^PASS\s+demo-tc-change\s+(device: .*)$", runs[fmt].stdout, re.M)
        counts[fmt] = m.group(1) if m else None
    want = "device: 3 QPs, 3 SUSPEND_QP, 3 AE 0x0900, 3 RESUME_QP, WS 1 nodes removed, 1 added"
    empty = runs["empty"]
    return [(counts["7.2"] == want and counts["11.1"] == want,
             f"device counts from both trace formats: {counts}"),
            (empty.returncode == 1 and "Traceback" not in empty.stderr and
             bool(re.search(r"^SKIP\s+picture\s+not drawn: no SUSPEND_QP", empty.stdout, re.M)) and
             "demo: 4 of 4 steps passed" in empty.stdout,
             f"a trace without the TC change's events: exit {empty.returncode}, the picture "
             f"skipped, the steps reported")]


def selftest(path):
    with open(path) as f:
        text = f.read()
    results = [(all(ok for ok, _ in checks(text)), f"{path} passes every check")]
    head, tail = text[:len(text) - len(summary_of(text))], summary_of(text)
    for what, pattern, repl in MUTATIONS:
        changed, n = re.subn(pattern, repl, tail, count=1, flags=re.M)
        changed = head + changed
        failed = [w for ok, w in checks(changed) if not ok]
        results.append((n == 1 and bool(failed),
                        f"{what}: fails {failed[0] if failed else 'no check'}"))
    with tempfile.TemporaryDirectory() as tmp:
        results += bad_input_checks(tmp)
        results += trace_format_checks(tmp)
    return report(results)


def main(argv):
    if argv[:1] == ["--selftest"] and len(argv) == 2:
        return selftest(argv[1])
    if argv[:1] == ["--run"]:
        cmd = ["bash", os.path.join(REPO, "scripts", "irdma-sim"), "demo"] + argv[1:]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            lines.append(line)
        rc = proc.wait()
        print(f"== demo-check: the demo exited {rc}")
        return report(checks("".join(lines)) + [(rc == 0, f"the demo's exit status {rc}")])
    if len(argv) == 1 and not argv[0].startswith("-"):
        with open(argv[0]) as f:
            return report(checks(f.read()))
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
