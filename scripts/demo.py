#!/usr/bin/env python3
"""The demo (scripts/irdma-sim demo): one guest boot showing, narrated, the device's main job.

Boots the guest list demo (guest-tests/lists/demo, 4 vCPUs) with the device's QP, AE,
work-scheduler, completion and fault events traced (run-guest.py --trace, host timestamps) and
narrates its four steps as they finish: ice probes and irdma0 comes up; a DCB traffic-class
change (1 -> 4 TCs) suspends and resumes every QP under verified RDMA traffic; modify-QP-to-SQD
and back; one fault injected at run time and what irdma then did. From the trace it counts what
the device did during the TC change and draws its timeline (gnuplot, SVG next to the log).
Ends with a summary table and the paths of the log, the trace and the picture. --replay narrates
a recorded log (and its trace) again without booting. Exit status: 0 when every step passed and
the picture was drawn, 1 otherwise, 2 for bad usage.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import qemu_trace

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = """\
usage: scripts/irdma-sim demo [OPTIONS]   (scripts/demo.py [OPTIONS] once the tree is built)
One guest boot (4 vCPUs) narrating what the device does; ends with a summary table.
Options:
  --kernel NAME      guest kernel: 6.1, 6.12, 7.3, deb:FILE[,FILE] or tree:DIR[,MODDIR]
  --module FILE.ko   replace that module of the guest kernel with this build (repeatable)
  --junit FILE       also write a JUnit XML report of the demo's guest tests
  --log FILE         the serial log (default build/demo/demo-TIME.log; trace in FILE.trace)
  --picture FILE     the TC-change timeline, SVG (default: next to the log, LOG-tc-change.svg)
  --replay LOG       no boot: narrate a recorded demo log (and LOG.trace) again
  -h, --help         this text"""
SMP = 4
BOOT_TIMEOUT_S = 600
TEST_TIMEOUT_S = 180
# The device's trace events the demo reads (hw/trace-events).
TRACE_EVENTS = ["irdma_sim_qp_suspend", "irdma_sim_qp_resume", "irdma_sim_qp_ae",
                "irdma_sim_qp_modify", "irdma_sim_ws_add", "irdma_sim_ws_delete",
                "irdma_sim_sq_complete", "irdma_sim_fault_fired", "irdma_sim_fw_dcb_cfg"]
AE_SUSPEND_DONE = "0x900"
# The steps: guest test, title, what to look at.
STEPS = [
    ("demo-probe", "ice probes the device, irdma comes up on top",
     "the device ID (8086:1593), ice's netdev and firmware, DCB in software with a queue per "
     "TC, irdma0 with port 1 ACTIVE"),
    ("demo-tc-change", "a DCB traffic-class change, 1 -> 4 TCs, under verified RDMA traffic",
     "one SUSPEND_QP, one AE 0x0900 and one RESUME_QP per QP, the work-scheduler (WS) nodes "
     "replaced, and the traffic: bytes moved, 0 payload mismatches, the longest wait"),
    ("demo-sqd", "modify-QP-to-SQD and back to RTS",
     "both SQD checks pass with every byte verified; the device counts a suspend and an AE "
     "per SQD, and no resume"),
    ("demo-fault", "one fault injected at run time: a lost suspend-complete AE",
     "the fault firing once, irdma's reaction in the kernel log (a timeout, no hang), SQD "
     "working again once the plan is removed"),
]
STEP_NAMES = [s[0] for s in STEPS]
# The picture's time axis: from before the first SUSPEND_QP to after the last RESUME_QP, by
# this share of the time between them (at least PICTURE_PAD_MIN_S); traffic is drawn in
# PICTURE_BINS bins of that span, a bin with a completion in it drawn as traffic.
PICTURE_PAD = 1.0
PICTURE_PAD_MIN_S = 0.05
PICTURE_BINS = 400

KLOG_CONSOLE = re.compile(r"^\[\s*\d+\.\d+\] ")
KTAP_RESULT = re.compile(r"^(ok|not ok) \d+ (\S+)(?: # (.*))?$")
HARNESS_RESULT = re.compile(r"^(PASS|FAIL|TIMEOUT)\s+(\S+)(?: (.*))?$")
LOG_LINE = re.compile(r"^\[\s*(\d+\.\d+)\] (.*)$")


class UsageError(Exception):
    pass


def parse_args(argv):
    o = {"kernel": None, "module": [], "junit": None, "log": None, "picture": None,
         "replay": None}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-h", "--help"):
            o["help"] = True
            return o
        name, eq, val = arg.partition("=")
        if name.startswith("--") and name[2:] in o:
            if not eq:
                if i + 1 >= len(argv):
                    raise UsageError(f"{name} needs a value (--help lists the options)")
                i += 1
                val = argv[i]
            if name == "--module":
                o["module"].append(val)
            else:
                o[name[2:]] = val
        else:
            raise UsageError(f"unknown option '{arg}' (--help lists the options)")
        i += 1
    if o["replay"] and (o["kernel"] or o["module"] or o["junit"] or o["log"]):
        raise UsageError("--replay reads a recorded log: not with --kernel, --module, --junit "
                         "or --log")
    if o["replay"] and not os.path.isfile(o["replay"]):
        raise UsageError(f"--replay {o['replay']}: no such file")
    return o


def picture_problem(path):
    """Why the picture cannot be drawn at @path (a sentence), or None."""
    if not shutil.which("gnuplot"):
        return "gnuplot not found (Debian package gnuplot-nox, which setup-host.sh installs)"
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        return f"cannot write {path}: no directory {d}"
    if os.path.isdir(path):
        return f"cannot write {path}: it is a directory"
    if not os.access(path if os.path.exists(path) else d, os.W_OK):
        return f"cannot write {path}: permission denied"
    return None


class Narrator:
    """Turns the guest's console into the demo's narration and keeps each step's verdict and
    output lines."""

    def __init__(self):
        self.verdicts = {}               # step: (PASS|FAIL|TIMEOUT, detail)
        self.output = {s: [] for s in STEP_NAMES}
        self.in_dmesg = False

    def console(self, line):
        if line.startswith("@@DMESG-BEGIN"):
            self.in_dmesg = True
        elif line.startswith("@@DMESG-END"):
            self.in_dmesg = False
        if self.in_dmesg or line.startswith("@@DMESG"):
            return
        m = re.match(r"@@BEGIN (\S+)$", line)
        if m:
            self.begin(m.group(1))
            return
        m = re.match(r"\[([A-Za-z0-9_.-]+)\] (.*)$", line)
        if m:
            self.output.setdefault(m.group(1), []).append(m.group(2))
            print(f"    {m.group(2)}", flush=True)
            return
        # What else reaches the console: the firmware's screen, /init's markers, and kernel
        # lines of level error and above (shown) or the final power-down (not).
        if KLOG_CONSOLE.match(line) and "reboot: Power down" not in line:
            print(f"    (kernel) {line}", flush=True)

    def begin(self, test):
        n = STEP_NAMES.index(test) + 1 if test in STEP_NAMES else 0
        title, look = next(((t, lk) for s, t, lk in STEPS if s == test), (test, ""))
        print(f"\n== step {n} of {len(STEPS)}: {title} ({test})", flush=True)
        if look:
            print(f"   look at: {look}", flush=True)

    def result(self, test, verdict, detail):
        # The harness may fail a test after its PASS (its boot's verdict): the last one counts.
        self.verdicts[test] = (verdict, detail or "")
        print(f"  => {verdict} {test}{' ' + detail if detail else ''}", flush=True)

    def facts(self, test, pattern):
        """The first match of @pattern among @test's output lines, or None."""
        for line in self.output.get(test, []):
            m = re.search(pattern, line)
            if m:
                return m
        return None


def run_boot(o, log, narrator):
    """One demo boot through run-guest.py, narrated as it goes; returns its exit status."""
    cmd = [sys.executable, os.path.join(REPO, "scripts", "run-guest.py"), "--list", "demo",
           "--smp", str(SMP), "--log", log, "--timeout", str(BOOT_TIMEOUT_S),
           "--test-timeout", str(TEST_TIMEOUT_S), "--trace", ",".join(TRACE_EVENTS)]
    if o["kernel"]:
        cmd += ["--kernel", o["kernel"]]
    for m in o["module"]:
        cmd += ["--module", m]
    if o["junit"]:
        cmd += ["--junit", o["junit"]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    for raw in proc.stdout:
        line = raw.rstrip("\n")
        m = HARNESS_RESULT.match(line)
        if line.startswith("  | "):
            narrator.console(line[4:])
        elif m:
            narrator.result(m.group(2), m.group(1), m.group(3))
        elif line.startswith("boot"):
            print(f"\n{line}", flush=True)
        elif line and not re.match(r"^\d+ passed, \d+ failed$", line):
            print(line, flush=True)
    return proc.wait()


def replay(log, narrator):
    """Narrates a recorded demo log: its console lines and the guests' own KTAP results."""
    with open(log, errors="replace") as f:
        for raw in f:
            m = LOG_LINE.match(raw.rstrip("\n"))
            if not m:
                continue
            line = m.group(2)
            r = KTAP_RESULT.match(line)
            if r and not narrator.in_dmesg:
                narrator.result(r.group(2), "PASS" if r.group(1) == "ok" else
                                "TIMEOUT" if (r.group(3) or "").startswith("TIMEOUT") else "FAIL",
                                r.group(3))
            else:
                narrator.console(line)


class Trace:
    """The boot's trace events on the host's wall clock, and the TC change's window in it."""

    def __init__(self, log):
        self.log, self.path = log, log + ".trace"
        self.events = []                 # (wall seconds, event name, detail)
        self.problem = None
        self.begin = self.end = None     # the TC change's marks, wall seconds
        t0, marks = None, {}
        with open(log, errors="replace") as f:
            for line in f:
                m = re.match(r"^# t0 (\d+\.\d+)", line)
                if m:
                    t0 = float(m.group(1))
                m = re.match(r"^\[\s*(\d+\.\d+)\] .*@@HOST \S+ mark (\S+)", line)
                if m:
                    marks[m.group(2)] = float(m.group(1))
        if t0 is not None and "tc-change-begin" in marks and "tc-change-end" in marks:
            self.begin = t0 + marks["tc-change-begin"]
            self.end = t0 + marks["tc-change-end"]
        try:
            with open(self.path, errors="replace") as f:
                for line in f:
                    event = qemu_trace.parse(line)
                    if event and event[0] is not None:
                        self.events.append(event)
        except OSError as e:
            self.problem = f"cannot read the trace {self.path}: {e.strerror}"
            return
        if self.begin is None:
            self.problem = "the log has no TC change marks (the step did not get that far)"

    def window(self, name, pattern=""):
        """The events @name whose detail matches @pattern during the TC change."""
        return [(t, d) for t, n, d in self.events
                if n == name and self.begin <= t <= self.end and re.search(pattern, d)]

    def qp_of(self, detail):
        m = re.match(r"qp=(\d+)", detail)
        return int(m.group(1)) if m else None

    def tc_counts(self):
        """{what: count} of the device's events during the TC change, and the QPs suspended."""
        sus = self.window("irdma_sim_qp_suspend")
        ae = self.window("irdma_sim_qp_ae", rf"ae={AE_SUSPEND_DONE} .*posted")
        res = self.window("irdma_sim_qp_resume")
        qps = sorted({self.qp_of(d) for _, d in sus + res})
        return {"qps": len(qps), "suspend": len(sus), "ae": len(ae),
                "ws_removed": len(self.window("irdma_sim_ws_delete")),
                "ws_added": len(self.window("irdma_sim_ws_add")), "resume": len(res)}, qps

    def faults_fired(self, rule):
        return sum(1 for _, n, d in self.events
                   if n == "irdma_sim_fault_fired" and d.startswith(f"rule {rule}:"))

    def peers(self):
        """{qp: its destination QP}, from the device's MODIFY_QP events."""
        out = {}
        for _, n, d in self.events:
            m = re.match(r"qp=(\d+) .* dest_qp=(\d+)", d) if n == "irdma_sim_qp_modify" else None
            if m and int(m.group(2)):
                out[int(m.group(1))] = int(m.group(2))
        return out


def traffic_intervals(times, lo, hi):
    """[(start, length)] of the PICTURE_BINS bins of [lo, hi] holding a completion, merged."""
    width = (hi - lo) / PICTURE_BINS
    bins = sorted({int((t - lo) / width) for t in times if lo <= t < hi})
    out = []
    for b in bins:
        if out and b == out[-1][1]:
            out[-1][1] = b + 1
        else:
            out.append([b, b + 1])
    return [(lo + a * width, (b - a) * width) for a, b in out]


def draw(trace, qps, counts, path, kernel):
    """The TC change's timeline as an SVG at @path (gnuplot); returns None or why it failed."""
    suspends = [t for t, _ in trace.window("irdma_sim_qp_suspend")]
    resumes = [t for t, _ in trace.window("irdma_sim_qp_resume")]
    if not suspends or not resumes:
        return "no SUSPEND_QP or RESUME_QP event in the trace during the TC change"
    peers = trace.peers()
    first, last = min(suspends), max(resumes)
    pad = max(PICTURE_PAD * (last - first), PICTURE_PAD_MIN_S)
    lo, hi = first - pad, last + pad
    done = {}
    for t, n, d in trace.events:
        if n == "irdma_sim_sq_complete":
            done.setdefault(trace.qp_of(d), []).append(t)
    # Rows from the top: QP1, then each requester above its responder, then the WS tree.
    rows, seen = [], set()
    for q in qps:
        if q in seen:
            continue
        if q in done and peers.get(q) in qps:
            pair = [(q, "requester"), (peers[q], "responder")]
        elif peers.get(q) in done:
            pair = [(peers[q], "requester"), (q, "responder")]
        else:
            pair = [(q, "GSI" if q == 1 else "")]
        for qp, role in pair:
            if qp not in seen:
                rows.append((qp, role))
                seen.add(qp)
    ws_row = len(rows) + 1
    y = {qp: len(rows) - i for i, (qp, _) in enumerate(rows)}
    x = lambda t: (t - first) * 1000                                    # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        def data(name, lines):
            with open(os.path.join(tmp, name), "w") as f:
                f.write("\n".join(lines) + "\n" if lines else "NaN NaN\n")
            return os.path.join(tmp, name).replace("'", "''")
        traffic = []
        for qp, _ in rows:
            src = done.get(qp) or done.get(peers.get(qp), [])
            traffic += [f"{x(a):.4f} {y[qp]} {w * 1000:.4f}" for a, w in traffic_intervals(src, lo, hi)]
        files = {
            "traffic": data("traffic", traffic),
            "suspend": data("suspend", [f"{x(t):.4f} {y[trace.qp_of(d)]}" for t, d in
                                        trace.window("irdma_sim_qp_suspend")
                                        if trace.qp_of(d) in y]),
            "ae": data("ae", [f"{x(t):.4f} {y[trace.qp_of(d)]}" for t, d in
                              trace.window("irdma_sim_qp_ae", rf"ae={AE_SUSPEND_DONE} .*posted")
                              if trace.qp_of(d) in y]),
            "resume": data("resume", [f"{x(t):.4f} {y[trace.qp_of(d)]}" for t, d in
                                      trace.window("irdma_sim_qp_resume")
                                      if trace.qp_of(d) in y]),
            "wsdel": data("wsdel", [f"{x(t):.4f} {ws_row}" for t, _ in
                                    trace.window("irdma_sim_ws_delete")]),
            "wsadd": data("wsadd", [f"{x(t):.4f} {ws_row}" for t, _ in
                                    trace.window("irdma_sim_ws_add")]),
        }
        labels = [f'"QP {qp}{" " + role if role else ""}" {y[qp]}' for qp, role in rows]
        labels.append(f'"WS tree" {ws_row}')
        title = (f"DCB change 1 -> 4 TCs under verified traffic: {counts['qps']} QPs, "
                 f"{counts['suspend']} SUSPEND\\_QP, {counts['ae']} AE 0x0900, "
                 f"{counts['resume']} RESUME\\_QP (kernel {kernel})").replace("'", "''")
        height = 160 + 26 * (len(rows) + 1)
        script = f"""
set terminal svg size 1100,{height} dynamic enhanced font 'sans,11' background '#ffffff'
set output '{path.replace("'", "''")}'
set title '{title}'
set xlabel 'milliseconds from the first SUSPEND\\_QP (host clock)'
set xrange [{x(lo):.3f}:{x(hi):.3f}]
set yrange [0.3:{ws_row + 0.7}]
set ytics ({", ".join(labels)}) nomirror
set grid xtics lc rgb '#dddddd'
set key outside right top vertical
set style arrow 1 nohead lc rgb '#7aa6d6' lw 7
plot '{files["traffic"]}' using 1:2:3:(0) with vectors arrowstyle 1 title 'traffic (completions)', \\
     '{files["suspend"]}' using 1:2 with points pt 9 ps 1.1 lc rgb '#d62728' title 'SUSPEND\\_QP issued', \\
     '{files["ae"]}' using 1:2 with points pt 6 ps 1.8 lc rgb '#ff7f0e' title 'AE 0x0900 raised', \\
     '{files["wsdel"]}' using 1:2 with points pt 2 ps 1.2 lc rgb '#6a3d9a' title 'WS node removed', \\
     '{files["wsadd"]}' using 1:2 with points pt 1 ps 1.4 lc rgb '#6a3d9a' title 'WS node added', \\
     '{files["resume"]}' using 1:2 with points pt 11 ps 1.1 lc rgb '#2ca02c' title 'RESUME\\_QP'
"""
        with open(os.path.join(tmp, "plot.gp"), "w") as f:
            f.write(script)
        r = subprocess.run(["gnuplot", os.path.join(tmp, "plot.gp")], capture_output=True,
                           text=True)
    if r.returncode != 0 or not os.path.exists(path) or os.path.getsize(path) == 0:
        msg = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
        return f"gnuplot failed: {msg}"
    return None


def kernel_of(log):
    """The guest kernel's release, from the boot's log (uname in the kernel's banner)."""
    try:
        with open(log, errors="replace") as f:
            for line in f:
                m = re.search(r"Linux version (\S+)", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return "?"


def summary(narrator, trace, counts, picture, picture_why, log, started):
    """The summary table; returns the number of rows that did not pass."""
    rows, bad = [], 0

    def row(verdict, step, text, more=()):
        rows.append(f"{verdict:7} {step:15} {text}")
        rows.extend(f"{'':23} {m}" for m in more)

    for step, _, _ in STEPS:
        verdict = narrator.verdicts.get(step, ("FAIL", "no result"))[0]
        bad += verdict != "PASS"
        if step == "demo-probe":
            m = narrator.facts(step, r"^irdma0 ACTIVE with (\d+) QP")
            row(verdict, step, "irdma0 ACTIVE" if m else "irdma0 not seen ACTIVE")
        elif step == "demo-tc-change":
            text = ("device: trace unreadable: " + trace.problem if trace.problem else
                    f"device: {counts['qps']} QPs, {counts['suspend']} SUSPEND_QP, "
                    f"{counts['ae']} AE 0x0900, {counts['resume']} RESUME_QP, WS "
                    f"{counts['ws_removed']} nodes removed, {counts['ws_added']} added")
            s = narrator.facts(step, r"^rdma-stream: (\d+) qps, (\d+) messages, (\d+) bytes, "
                                     r"(\d+) errors, (\d+) stalls")
            w = narrator.facts(step, r"^rdma-stream: (\d+) payload mismatches, longest wait "
                                     r"for a completion ([0-9.]+) s")
            traffic = (f"traffic: {s.group(1)} pairs, {s.group(2)} messages, {s.group(3)} bytes "
                       f"({int(s.group(3)) / 1e6:.1f} MB), {w.group(1)} mismatches, "
                       f"{s.group(4)} errors, longest stall {w.group(2)} s" if s and w else
                       "traffic: no verdict from rdma-stream")
            row(verdict, step, text, [traffic])
        elif step == "demo-sqd":
            m = narrator.facts(step, r"^SQD round trip done")
            row(verdict, step, "SQD round trip done" if m else "SQD round trip not done")
        elif step == "demo-fault":
            inj = narrator.facts(step, r"^fault injected: (\S+) fired (\d+) time")
            react = narrator.facts(step, r"^driver reaction \(dmesg\): (.*)$")
            fired = trace.faults_fired("suspend-ae-lost") if not trace.problem else 0
            row(verdict, step,
                f"fault: suspend-ae-lost injected, fired {fired} time(s) in the trace" if inj
                else "fault: not injected",
                [f"driver: {react.group(1)}" if react and react.group(1) else
                 "driver: no reaction seen"])
    if picture_why:
        bad += 1
        row("SKIP", "picture", f"not drawn: {picture_why}")
    else:
        row("PASS", "picture", picture)
    print("\n== summary")
    print("\n".join(rows))
    print(f"kernel:   {kernel_of(log)}")
    print(f"full log: {log}")
    print(f"trace:    {trace.path}")
    print(f"picture:  {picture if not picture_why else '(none)'}")
    steps_ok = sum(1 for s in STEP_NAMES if narrator.verdicts.get(s, ("",))[0] == "PASS")
    print(f"demo: {steps_ok} of {len(STEPS)} steps passed in {time.monotonic() - started:.0f} s")
    return bad


def main(argv):
    started = time.monotonic()
    try:
        o = parse_args(argv)
    except UsageError as e:
        print(f"demo: {e}", file=sys.stderr)
        return 2
    if o.get("help"):
        print(USAGE)
        return 0
    log = os.path.abspath(o["replay"] or o["log"] or os.path.join(
        REPO, "build", "demo", time.strftime("demo-%Y%m%d-%H%M%S.log")))
    if not o["replay"]:
        os.makedirs(os.path.dirname(log), exist_ok=True)
    picture = os.path.abspath(o["picture"] or re.sub(r"\.log$", "", log) + "-tc-change.svg")
    picture_why = picture_problem(picture)
    if picture_why:
        # Said once, up front; the other steps go on.
        print(f"demo: the picture will not be drawn: {picture_why}", file=sys.stderr)
    narrator = Narrator()
    if o["replay"]:
        print(f"demo: replaying {log} (no boot)")
        replay(log, narrator)
    else:
        print(f"demo: one guest boot, {SMP} vCPUs, the device's events traced to {log}.trace")
        run_boot(o, log, narrator)
    trace = Trace(log)
    counts, qps = trace.tc_counts() if not trace.problem else ({}, [])
    if not picture_why:
        picture_why = (f"no TC change to draw ({trace.problem})" if trace.problem else
                       draw(trace, qps, counts, picture, kernel_of(log)))
    return 1 if summary(narrator, trace, counts, picture, picture_why, log, started) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
