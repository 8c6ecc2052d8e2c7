#!/usr/bin/env python3
"""Boot the test guest under QEMU/TCG with -device irdma-sim and run a list of guest tests.

The guest's /init runs the tests named on the kernel command line and reports on the serial
console in KTAP (see guest-tests/init). This harness starts QEMU, timestamps every serial line
into a log file, parses the KTAP results and the @@ markers, prints one line per test and then
"N passed, N failed", and with --junit (or $IRDMA_SIM_JUNIT_DIR) writes a JUnit XML report: one
testcase per test asked for, a failure's text the harness's reasons and the tail of its output.
A test passes only if it reported PASS and its boot was sound: QEMU exited 0, /init got to
@@DONE, and the kernel log (console lines and the @@DMESG block) has no line of an oops, BUG,
WARNING, sanitizer report, hung task, RCU stall or list corruption (KLOG_BAD) that the test
did not declare with "@@EXPECT-KLOG <regex>" (the regex matching the whole line, timestamp
removed). A kernel line is the test's when it appeared while the test ran (/init marks each
test's start and end in the kernel log), else every test's of the boot. Each such test is
reported again as FAIL, naming the line, and counted as failed.
A test that needs more than the guest's initramfs declares a guest archive, a line
"# @@ARCHIVE NAME" in its script: scripts/build-NAME.sh builds it (cached) and prints its path,
and the guest boots its initramfs with the archives its tests declare appended (the kernel
unpacks concatenated cpio archives in turn).
Exit status: 0 only if every requested test passed.
"""
import argparse
import collections
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faultctl                                    # noqa: E402  (scripts/: the fault plans)
import qemu_cmd                                    # noqa: E402  (scripts/: the QEMU command line)
from qmp import Qmp                                # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(REPO, "build")
MAC_RE = re.compile(r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$")
# A kernel log line (console or dmesg): optional <level>, the printk timestamp, the text.
KLOG_LINE = re.compile(r"^(?:<\d+>)?\[\s*\d+\.\d+\] (.*)$")
# The guest's KTAP plan and result lines (a test's own output is prefixed "[NAME] ").
KTAP_PLAN = re.compile(r"^1\.\.(\d+)$")
KTAP_RESULT = re.compile(r"^(ok|not ok) (\d+) (\S+)(?: # (.*))?$")
# A guest test's declaration of a guest archive it needs (scripts/build-NAME.sh).
ARCHIVE_DECL = re.compile(r"^# @@ARCHIVE ([a-z0-9-]+)[ \t]*$", re.M)
# Lines of a test's output kept for its JUnit failure text.
JUNIT_TAIL = 40
# The drivers' kernel log lines of the first test that failed in a boot, printed beside its
# verdict (the last DRIVER_KLOG_TAIL of them), so that a CI log shows what ice and irdma said.
DRIVER_KLOG = re.compile(r"^(?:ice|irdma|infiniband) ")
DRIVER_KLOG_TAIL = 15
# How many times a boot whose kernel died or stalled before /init is booted again
# (died_before_init(), STALL_BEFORE_INIT).
BOOTS_AGAIN = 2
# Seconds a boot may take to reach /init (about 6 s on a quiet 2-core host, 84 s seen beside a
# CI run at a lower priority) before it counts as stalled there.
STALL_BEFORE_INIT = 300
# Kernel log lines that fail the test they appear in (unless it expects them).
KLOG_BAD = re.compile(r"\bOops\b|\bBUG:|\bWARNING:|\bKASAN\b|\bUBSAN\b|Kernel panic|"
                      r"general protection fault|soft lockup|hung task|"
                      r"blocked for more than \d+ seconds|"
                      r"rcu_sched self-detected stall|rcu: INFO|rcu_preempt detected stall|"
                      r"list_add corruption|list_del corruption")
# The kernel-mode RIP line of an oops or WARNING: where it happened, added to its reason.
KLOG_RIP = re.compile(r"\bRIP: 0010:(\S+(?: \[\w+\])?)")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tests", help="comma-separated guest tests (guest-tests/tests/NAME.sh)")
    p.add_argument("--list", help="a named list: guest-tests/lists/NAME")
    p.add_argument("--qemu", default=os.path.join(BUILD, "qemu-system-x86_64"))
    p.add_argument("--kernel", default=os.environ.get("IRDMA_SIM_KERNEL") or None,
                   metavar="NAME", help="the guest kernel, as scripts/irdma-sim --kernel names "
                   "it (default $IRDMA_SIM_KERNEL, else config.sh's KERNEL_DEFAULT): boots "
                   "build/guest/SLUG/, which scripts/build-guest.sh made")
    p.add_argument("--module", action="append", default=[], metavar="FILE.ko",
                   help="the guest built with this module replacing the kernel's (repeatable; "
                   "default $IRDMA_SIM_MODULES)")
    p.add_argument("--kernel-image", help="boot this image instead of the guest's own")
    p.add_argument("--initrd", help="this initramfs instead of the guest's own")
    p.add_argument("--mac", default="52:54:00:12:34:56", help="MAC of the irdma-sim device")
    p.add_argument("--msix", type=int, default=None, help="msix-vectors property")
    p.add_argument("--pcie", choices=("root-port", "root-bus"), default="root-port",
                   help="where the irdma-sim function sits: in a root port's slot, as a NIC "
                   "card is (default), or on the root bus itself (the guest sees t.pcie)")
    p.add_argument("--qom-report", default="", metavar="PROPS",
                   help="comma-separated irdma-sim QOM properties to print once the guest is "
                        "done (e.g. x-suspend-latency-max-ns)")
    p.add_argument("--device-props", default="",
                   help="more irdma-sim properties, e.g. 'timing=inline,timing-pcie-read-ns=900'")
    p.add_argument("--nic", choices=("irdma-sim", "virtio", "both", "none"), default="irdma-sim",
                   help="the guest's NIC (virtio/none: for comparisons and benchmarks; both: "
                   "irdma-sim and virtio-net, each on its own netdev, one guest only)")
    p.add_argument("--peer-nic", choices=("irdma-sim", "virtio"),
                   help="the second guest's NIC (default: the same as --nic); irdma-sim against "
                   "virtio-net with rxe is the wire-format interop test")
    p.add_argument("--peer-tests", help="boot a second guest on a shared wire running these "
                   "tests (comma-separated); the first gets t.role=a, this one t.role=b")
    p.add_argument("--peer-list", help="the second guest's tests as a named list")
    p.add_argument("--wire", choices=("socket", "dgram", "hub"), default="socket",
                   help="two guests: the netdev joining them (socket or dgram, UDP on loopback); "
                   "one guest: 'hub' puts a QEMU hub between the NIC and user networking")
    p.add_argument("--smp", type=int, default=2)
    p.add_argument("--icount", type=int, metavar="SHIFT",
                   help="deterministic run: -icount shift=SHIFT (2^SHIFT ns per guest "
                        "instruction), a fixed RTC, no KASLR, a wire to nowhere; the device's "
                        "effect digest is printed at the end (timing=auto becomes the model)")
    p.add_argument("--mem", default="1G")
    p.add_argument("--test-timeout", type=int, default=120, help="per test, seconds (guest)")
    p.add_argument("--timeout", type=int, default=600, help="whole boot, seconds (host)")
    p.add_argument("--log", help="serial log file (default build/logs/guest-TIME-PID.log)")
    p.add_argument("--append", default="", help="extra kernel command line")
    p.add_argument("--quiet", action="store_true", help="do not echo guest output")
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML report of this run (default: "
                   "a new file in $IRDMA_SIM_JUNIT_DIR when that is set)")
    p.add_argument("--trace", action="append", default=[], metavar="PATTERNS",
                   help="QEMU trace events to enable (e.g. 'irdma_sim_*'; comma-separated, "
                   "repeatable), written with host wall-clock timestamps to the log file with a "
                   ".trace suffix; the log's '# t0' line has the boot's start on the same clock")
    a = p.parse_args(argv)
    a.trace = [t for arg in a.trace for t in arg.split(",") if t]
    for t in a.trace:
        if not re.fullmatch(r"[A-Za-z0-9_*]+", t):
            p.error(f"--trace {t!r} is not a trace event name or pattern like irdma_sim_qp_*")
    if bool(a.tests) == bool(a.list):
        p.error("give exactly one of --tests or --list")
    if not MAC_RE.match(a.mac.lower()):
        p.error(f"--mac {a.mac!r} is not a MAC address like 52:54:00:12:34:56")
    def read_list(opt, name):
        path = os.path.join(REPO, "guest-tests", "lists", name)
        if not os.path.exists(path):
            p.error(f"{opt} {name!r}: no file {path}")
        with open(path) as f:
            return [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]

    if a.peer_tests and a.peer_list:
        p.error("give at most one of --peer-tests or --peer-list")
    if a.nic == "both" and (a.peer_tests or a.peer_list):
        p.error("--nic both boots one guest: not with --peer-tests/--peer-list")
    if a.peer_nic and not (a.peer_tests or a.peer_list):
        p.error("--peer-nic needs a second guest (--peer-tests or --peer-list)")
    a.peer_nic = a.peer_nic or a.nic
    a.test_names = read_list("--list", a.list) if a.list else [t for t in a.tests.split(",") if t]
    a.peer_tests = (read_list("--peer-list", a.peer_list) if a.peer_list else
                    [t for t in (a.peer_tests or "").split(",") if t])
    for t in a.test_names + a.peer_tests:
        if not re.match(r"^[A-Za-z0-9_.-]+$", t):
            p.error(f"test name {t!r} has characters a test name cannot have")
        if not os.path.exists(os.path.join(REPO, "guest-tests", "tests", t + ".sh")):
            p.error(f"unknown guest test {t!r} (no guest-tests/tests/{t}.sh)")
    guest_dir(p, a)
    for name in test_archives(a.test_names + a.peer_tests):
        if not os.path.exists(archive_script(name)):
            p.error(f"a test declares the guest archive {name!r}: no {archive_script(name)}")
    for what, path in (("--qemu", a.qemu), ("--kernel-image", a.kernel_image),
                       ("--initrd", a.initrd)):
        if not os.path.exists(path):
            p.error(f"{what} {path} does not exist (run scripts/irdma-sim test to build it)")
    return a


def guest_dir(p, a):
    """The built guest of --kernel/--module: its boot image and initramfs, unless given."""
    mods = a.module or [m for m in os.environ.get("IRDMA_SIM_MODULES", "").split(":") if m]
    cmd = [sys.executable, os.path.join(REPO, "scripts", "kernel.py"), "slug"]
    cmd += ([a.kernel] if a.kernel else []) + [x for m in mods for x in ("--module", m)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        p.error(r.stderr.strip())
    a.slug = r.stdout.strip()
    d = os.path.join(BUILD, "guest", a.slug)
    kname = a.kernel or "the default kernel"
    if not a.kernel_image:
        a.kernel_image = next((os.path.join(d, f) for f in ("vmlinux", "bzImage")
                               if os.path.exists(os.path.join(d, f))), os.path.join(d, "vmlinux"))
    if not a.initrd:
        a.initrd = os.path.join(d, "initramfs.cpio.gz")
    if not os.path.exists(a.initrd):
        p.error(f"no guest built for {kname} in {d}: run scripts/build-guest.sh "
                f"--kernel {a.kernel or ''} (or scripts/irdma-sim test --kernel ...)")


def archive_script(name):
    return os.path.join(REPO, "scripts", f"build-{name}.sh")


def test_archives(tests):
    """The guest archives @tests declare ("# @@ARCHIVE NAME" lines), each once, in order."""
    names = []
    for t in tests:
        with open(os.path.join(REPO, "guest-tests", "tests", t + ".sh")) as f:
            names += [n for n in ARCHIVE_DECL.findall(f.read()) if n not in names]
    return names


def initrd_for(a, tests):
    """The initramfs a guest running @tests boots: --initrd (or the guest's own) alone, or with
    the archives the tests declare appended, as build/guest/SLUG/initramfs+NAME[+NAME].cpio.gz
    (made again each run: the archives are built, or found in their cache, by their scripts)."""
    names = test_archives(tests)
    if not names:
        return a.initrd
    parts = [a.initrd]
    for name in names:
        r = subprocess.run(["bash", archive_script(name)], stdout=subprocess.PIPE, text=True)
        path = (r.stdout.strip().splitlines() or [""])[-1]
        if r.returncode != 0 or not os.path.isfile(path):
            sys.exit(f"run-guest: the guest archive {name} was not built "
                     f"({archive_script(name)} exit {r.returncode})")
        parts.append(path)
    out = os.path.join(BUILD, "guest", a.slug, f"initramfs+{'+'.join(names)}.cpio.gz")
    tmp = f"{out}.{os.getpid()}.tmp"
    with open(tmp, "wb") as dst:
        for part in parts:
            with open(part, "rb") as src:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
    os.replace(tmp, out)
    return out


# What a guest test may ask of the host with a line "@@HOST <id> <command> <args>" on the
# console; the harness answers on the console with "@@REPLY <id> <json>" (guest-tests lib.sh
# host_ask reads it back). trace_path: the boot's --trace file, or None.
def host_request(qmp, words, trace_path=None):
    if len(words) == 3 and words[0] == "set_link" and words[2] in ("on", "off"):
        return qmp.execute("set_link", name=words[1], up=words[2] == "on")
    if len(words) == 2 and words[0] == "qom-get":
        return qmp.execute("qom-get", path="/machine/peripheral/nic0", property=words[1])
    if len(words) >= 2 and words[0] == "qom-sum":
        # The sum of numeric properties, read in one request.
        total = 0
        for prop in words[1:]:
            r = qmp.execute("qom-get", path="/machine/peripheral/nic0", property=prop)
            if "error" in r:
                return r
            if not isinstance(r["return"], int):
                return {"error": f"{prop} is not a number: {r['return']!r}"}
            total += r["return"]
        return {"return": total}
    if len(words) >= 2 and words[0] == "fault-count":
        # Lines of the device's fault log matching a regular expression (may hold blanks).
        r = qmp.execute("qom-get", path="/machine/peripheral/nic0", property="x-fault-log")
        if "error" in r:
            return r
        try:
            pattern = re.compile(" ".join(words[1:]))
        except re.error as e:
            return {"error": f"bad pattern: {e}"}
        return {"return": sum(1 for line in r["return"].splitlines() if pattern.search(line))}
    if len(words) == 2 and words[0] == "mark" and re.fullmatch(r"[a-z0-9-]+", words[1]):
        # A named instant on the host's clock: the log keeps the request's time, and the
        # answer is the wall clock the --trace file's timestamps use.
        return {"return": round(time.time(), 6)}
    if len(words) >= 2 and words[0] == "trace-count":
        # Events of the --trace file matching a regular expression (QEMU writes each at once).
        if not trace_path:
            return {"error": "this boot has no --trace"}
        try:
            pattern = re.compile(" ".join(words[1:]))
            with open(trace_path, errors="replace") as f:
                return {"return": sum(1 for line in f if pattern.search(line))}
        except re.error as e:
            return {"error": f"bad pattern: {e}"}
        except OSError as e:
            return {"error": f"cannot read {trace_path}: {e.strerror}"}
    if len(words) == 2 and words[0] == "faults" and re.fullmatch(r"[a-z0-9-]*", words[1]):
        # Load guest-tests/faults/NAME.plan as the device's fault plan ("none" removes it),
        # as scripts/faultctl.py does.
        if words[1] == "none":
            return faultctl.clear(qmp, "nic0")
        return faultctl.load(qmp, "nic0", os.path.join(REPO, "guest-tests", "faults",
                                                       words[1] + ".plan"))
    return {"error": f"unknown host request {' '.join(words)!r}"}


class Guest:
    """One QEMU guest: its command line, its serial log, the results its /init reports."""

    def __init__(self, a, name, nic, tests, mac, netdevs, extra_append):
        self.a, self.name, self.nic, self.tests, self.mac = a, name, nic, tests, mac
        self.log_path = a.log if name == "a" else a.log[:-4] + f"-{name}.log"
        self.initrd = a.initrds[tuple(tests)]
        # The QMP socket lives in a directory of its own: a log path may hold "," or "=", which
        # QEMU's option parser splits on, or be longer than a socket path may be (108 bytes).
        self.qmp_dir = tempfile.mkdtemp(prefix="irdma-sim-qmp-")
        self.qmp_path = os.path.join(self.qmp_dir, "qmp")
        self.qmp = Qmp(self.qmp_path)
        self.cmd = self.command(netdevs, extra_append)
        self.results, self.marks = {}, {}
        self.plan = None              # N of the guest's KTAP plan "1..N"
        self.begun = {}               # test: host time of its @@BEGIN
        self.took = {}                # test: seconds from @@BEGIN to its result
        self.output = collections.defaultdict(lambda: collections.deque(maxlen=JUNIT_TAIL))
        self.buf = b""
        self.in_dmesg = False
        self.running = None           # the test between its @@BEGIN and its result (console)
        self.klog_test = None         # the test between its kernel-log marks (@@DMESG block)
        self.klog_bad = []            # [(test or None, line)]: KLOG_BAD lines, in order
        self.klog_where = {}          # index in klog_bad: the RIP line that followed it
        self.klog_unripped = None     # index in klog_bad of the first bad line since a RIP line
        self.klog_expect = {}         # test: [the regexes of its @@EXPECT-KLOG lines]
        self.driver_klog = collections.defaultdict(
            lambda: collections.deque(maxlen=DRIVER_KLOG_TAIL))   # test: its DRIVER_KLOG lines
        self.proc = None
        self.log = None

    def command(self, netdevs, extra_append):
        a = self.a
        # log_buf_len: the tests read ice's dynamic-debug output back from dmesg.
        append = ["console=ttyS0,115200", "panic=-1", "loglevel=4", "log_buf_len=16M",
                  "t.tests=" + ",".join(self.tests), f"t.tmo={a.test_timeout}",
                  "t.mac=" + self.mac, "t.nic=" + self.nic] + extra_append
        cmd = qemu_cmd.machine(a.qemu, a.smp, a.mem) + [
            "-nographic", "-serial", "stdio", "-kernel", a.kernel_image, "-initrd", self.initrd]
        if a.icount is not None:
            # Nothing from the host's clock may reach the guest.
            cmd += ["-icount", f"shift={a.icount},sleep=off",
                    "-rtc", "base=2026-01-01T00:00:00,clock=vm"]
            append.append("nokaslr")
        if self.report_props():
            cmd.append("-no-shutdown")      # read after the guest's poweroff; report() quits
        if self.nic != "none":
            for nd in netdevs:
                cmd += ["-netdev", nd]
        if self.nic in ("irdma-sim", "both"):
            dev = f"id=nic0,netdev=n0,mac={self.mac}"
            if a.device_props:
                dev += "," + a.device_props
            if a.msix is not None:
                dev += f",msix-vectors={a.msix}"
                append.append(f"t.msix={a.msix}")
            append.append(f"t.pcie={a.pcie}")
            cmd += qemu_cmd.irdma_device(dev, a.pcie)
        if self.nic in ("virtio", "both"):
            # Next to irdma-sim, the virtio NIC has its own netdev and the next MAC.
            netdev, mac = ("n1", next_mac(self.mac)) if self.nic == "both" else ("n0", self.mac)
            cmd += ["-device", f"virtio-net-pci,netdev={netdev},mac={mac},speed=25000,"
                    "duplex=full,romfile="]
        if a.trace:
            for t in a.trace:
                cmd += ["-trace", t]
            cmd += ["-msg", "timestamp=on", "-D", self.trace_path()]
        cmd += qemu_cmd.qmp(self.qmp_path)
        cmd += ["-append", " ".join(append + ([a.append] if a.append else []))]
        return cmd

    def trace_path(self):
        return self.log_path + ".trace" if self.a.trace else None

    def start(self, t0, wall0):
        self.t0 = t0
        self.log = open(self.log_path, "w")
        self.log.write("# " + " ".join(self.cmd) + "\n")
        # The log's times are seconds since this instant; the trace's are wall-clock.
        self.log.write(f"# t0 {wall0:.6f} (wall clock, seconds since the epoch)\n")
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)

    def feed(self, chunk):
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for raw in lines:
            self.line(raw.decode("utf-8", "replace").rstrip("\r"))

    def line(self, line):
        now = time.monotonic() - self.t0
        tag = f"{self.name}:" if self.a.peer_tests else ""
        self.log.write(f"[{now:8.3f}] {line}\n")
        if line.startswith("@@DMESG-BEGIN"):
            self.in_dmesg = True
        elif line.startswith("@@DMESG-END"):
            self.in_dmesg = False
        m = re.search(r"@@HOST (\S+) (.*)$", line)
        if m:
            reply = host_request(self.qmp, m.group(2).split(), self.trace_path())
            self.log.write(f"# host request {m.group(2)!r}: {json.dumps(reply)}\n")
            try:
                self.proc.stdin.write(f"@@REPLY {m.group(1)} {json.dumps(reply)}\n".encode())
                self.proc.stdin.flush()
            except OSError:
                pass
        self.klog_scan(line)
        m = re.search(r"@@(INIT|DONE)\b", line)
        if m:
            self.marks[m.group(1)] = now
        if m and m.group(1) == "DONE" and self.report_props():
            self.report()
        got = None if self.in_dmesg else self.ktap(line, now)
        if got:
            print(f"{got[1]:7} {tag}{got[0]} {got[2]}".rstrip(), flush=True)
        elif not self.a.quiet and not self.in_dmesg and not line.startswith("@@DMESG"):
            print(f"  {tag}| " + line, flush=True)

    def ktap(self, line, now):
        """Takes in a console line outside the kernel log: the KTAP plan, a test's begin mark,
        its output, its result. Returns (test, PASS|FAIL|TIMEOUT, detail) for a result line."""
        m = KTAP_PLAN.match(line)
        if m:
            self.plan = int(m.group(1))
            return None
        m = re.match(r"@@BEGIN (\S+)$", line)
        if m:
            self.begun[m.group(1)] = now
            return None
        m = re.match(r"\[([A-Za-z0-9_.-]+)\] ", line)
        if m:
            self.output[m.group(1)].append(line[m.end():])
            return None
        m = KTAP_RESULT.match(line)
        if not m:
            return None
        ok, test, detail = m.group(1) == "ok", m.group(3), m.group(4) or ""
        verdict = "PASS" if ok else "TIMEOUT" if detail.startswith("TIMEOUT") else "FAIL"
        if verdict == "TIMEOUT":
            detail = detail[len("TIMEOUT"):].strip()
        self.results[test] = (verdict, detail)
        if test in self.begun:
            self.took[test] = now - self.begun[test]
        return test, verdict, detail

    def klog_scan(self, line):
        """Follows which test runs, collects the tests' @@EXPECT-KLOG regexes and the kernel
        log's KLOG_BAD lines with the test they belong to."""
        m = re.match(r"@@BEGIN (\S+)", line)
        if m:
            self.running = m.group(1)
        elif KTAP_RESULT.match(line):
            self.running = None
        elif line.startswith("@@DMESG-BEGIN"):
            # The kernel log again, whole: a report the console showed without its RIP line
            # gets the RIP that follows it here, not one of an earlier report.
            self.klog_unripped = None
        m = re.match(r"\[(\S+)\] @@EXPECT-KLOG (.*)$", line)
        if m:
            self.klog_expect.setdefault(m.group(1), []).append(m.group(2))
        m = KLOG_LINE.match(line)
        if not m:
            return
        text = m.group(1)
        if self.in_dmesg:
            mark = re.match(r"@@TEST-(BEGIN|END) (\S+)$", text)
            if mark:
                self.klog_test = mark.group(2) if mark.group(1) == "BEGIN" else None
                return
            test = self.klog_test
            if test and DRIVER_KLOG.match(text):
                self.driver_klog[test].append(text)
        else:
            test = self.running
        if KLOG_BAD.search(text):
            if (test, text) not in self.klog_bad:
                self.klog_bad.append((test, text))
            if self.klog_unripped is None:
                self.klog_unripped = self.klog_bad.index((test, text))
        rip = KLOG_RIP.search(text)
        if rip:
            # The first bad line since the last RIP line gets it (one RIP per report).
            if self.klog_unripped is not None and self.klog_unripped not in self.klog_where:
                self.klog_where[self.klog_unripped] = rip.group(1)
            self.klog_unripped = None

    def klog_expected(self, test, text):
        for pattern in self.klog_expect.get(test, []):
            try:
                if re.fullmatch(pattern, text):
                    return True
            except re.error:
                pass                    # verdicts() fails the test for its bad regex
        return False

    def verdicts(self, rc):
        """{test: [why it failed although it may have reported PASS]} for the whole boot."""
        why = {t: [] for t in self.tests}
        for t, patterns in self.klog_expect.items():
            for pattern in patterns:
                try:
                    re.compile(pattern)
                except re.error as e:
                    why.setdefault(t, []).append(f"bad @@EXPECT-KLOG {pattern!r}: {e}")
        for i, (test, text) in enumerate(self.klog_bad):
            where = f" (RIP {self.klog_where[i]})" if i in self.klog_where else ""
            for t in [test] if test in why else self.tests:
                if not self.klog_expected(t, text):
                    why[t].append(f"kernel log: {text}{where}")
        if "DONE" not in self.marks:
            for t in self.tests:
                why[t].append("the guest never got to @@DONE (crash or hang)")
        if rc != 0:
            for t in self.tests:
                why[t].append(f"qemu exit {rc}")
        if self.plan is not None and self.plan != len(self.tests):
            for t in self.tests:
                why[t].append(f"the guest planned {self.plan} tests (KTAP 1..{self.plan}), "
                              f"{len(self.tests)} were asked for")
        return why

    def report_props(self):
        """The device properties to print when the guest is done: --qom-report's, and under
        --icount the effects (the last test unbinds the drivers, so nothing changes them)."""
        props = [p for p in self.a.qom_report.split(",") if p]
        if self.a.icount is not None:
            props += ["x-effects", "x-effects-digest", "x-effects-last-ns"]
        return props if self.nic in ("irdma-sim", "both") else []

    def report(self):
        vals = {}
        for prop in self.report_props():
            r = self.qmp.execute("qom-get", path="/machine/peripheral/nic0", property=prop)
            vals[prop] = r.get("return", r.get("error"))
        for prop in self.a.qom_report.split(","):
            if prop:
                v = vals[prop]
                print(f"qom {prop} {json.dumps(v) if isinstance(v, str) else v}", flush=True)
        if self.a.icount is not None:
            if all(isinstance(vals[p], int) for p in ("x-effects", "x-effects-digest",
                                                       "x-effects-last-ns")):
                print(f"device effects: {vals['x-effects']} digest "
                      f"0x{vals['x-effects-digest']:016x} last at {vals['x-effects-last-ns']} ns",
                      flush=True)
            else:
                print(f"device effects: unreadable ({vals})", flush=True)
        try:
            self.qmp.execute("quit")
        except (OSError, ValueError):
            pass                                   # QEMU may close before it replies

    def finish(self, timed_out):
        rc = self.proc.wait()
        self.log.write(f"# qemu exit {rc}{f' ({timeout_why(timed_out)})' if timed_out else ''}\n")
        self.log.close()
        self.drop_qmp()
        self.settle(rc, timed_out)
        tag = f"{self.name}:" if self.a.peer_tests else ""
        if "INIT" in self.marks:
            done = f", tests done at {self.marks['DONE']:.2f} s" if "DONE" in self.marks else ""
            print(f"boot{' ' + self.name if tag else ''}: /init at {self.marks['INIT']:.2f} s"
                  f"{done}; log {self.log_path}")
        else:
            print(f"boot{' ' + self.name if tag else ''}: /init never started; log {self.log_path}")
        return sum(1 for t in self.tests if self.results.get(t, ("",))[0] == "PASS")

    def log_registers(self):
        """Every vCPU's registers into the log, from the monitor (a boot that stalled), if it
        answers within 10 s."""
        self.qmp.set_timeout(10)
        try:
            r = self.qmp.execute("human-monitor-command", **{"command-line": "info registers -a"})
        except (OSError, RuntimeError, ValueError) as e:
            r = {"error": f"the monitor did not answer: {e}"}
        self.log.write(f"# stalled before /init; info registers -a:\n{r.get('return', r)}\n")

    def abandon(self, n):
        """Ends this boot without a verdict (it is booted again): reaps QEMU and keeps its log
        as LOG.diedN."""
        rc = self.proc.wait()
        self.log.write(f"# qemu exit {rc}; booted again\n")
        self.log.close()
        os.replace(self.log_path, f"{self.log_path}.died{n}")
        self.drop_qmp()

    def drop_qmp(self):
        if os.path.exists(self.qmp_path):
            os.unlink(self.qmp_path)
        os.rmdir(self.qmp_dir)

    def settle(self, rc, timed_out):
        """The boot's final verdicts: prints a FAIL line for each test without a result and for
        each the boot's verdict fails; leaves self.why = {test: [reasons it did not pass]}."""
        tag = f"{self.name}:" if self.a.peer_tests else ""
        for t in self.tests:
            if t not in self.results:
                why = (timeout_why(timed_out) if timed_out else
                       f"guest ended without a result (qemu exit {rc})")
                print(f"FAIL    {tag}{t} no result: {why}")
        why = self.verdicts(rc)
        self.why = {t: list(why[t]) for t in self.tests}
        for t in self.tests:
            if t not in self.results:
                self.why[t].insert(0, timeout_why(timed_out) if timed_out else
                                   f"no result: the guest ended without one (qemu exit {rc})")
            elif self.results[t][0] != "PASS":
                self.why[t].insert(0, f"{self.results[t][0]} {self.results[t][1]}".rstrip())
        for t in self.tests:
            if why[t]:
                was = self.results.get(t, ("no result",))[0]
                more = f" (and {len(why[t]) - 3} more)" if len(why[t]) > 3 else ""
                print(f"FAIL    {tag}{t} (reported {was}): {'; '.join(why[t][:3])}{more}")
                if was == "PASS":
                    self.results[t] = ("FAIL", why[t][0])
        failed = [t for t in self.tests if self.why[t]]
        if failed and self.driver_klog[failed[0]]:
            print(f"kernel log of {tag}{failed[0]} (ice, irdma; its last {DRIVER_KLOG_TAIL}):")
            for text in self.driver_klog[failed[0]]:
                print(f"  | {text}")


def next_mac(mac):
    return mac[:-2] + f"{(int(mac[-2:], 16) + 1) % 256:02x}"


def junit_suite(g, suite_name):
    """A <testsuite> of guest @g after finish(): one testcase per test asked for; a test that
    did not pass (whatever the reason: its result, the boot's verdict, no result at all) has a
    <failure> with the reasons and the tail of its output."""
    suite = ET.Element("testsuite", name=suite_name, tests=str(len(g.tests)))
    failures = 0
    for t in g.tests:
        case = ET.SubElement(suite, "testcase", classname=suite_name, name=t,
                             time=f"{g.took.get(t, 0.0):.3f}")
        if g.why[t]:
            failures += 1
            fail = ET.SubElement(case, "failure", message=g.why[t][0][:500])
            fail.text = "\n".join(g.why[t] + ["", f"last {JUNIT_TAIL} lines of output:"] +
                                  list(g.output.get(t, [])))
    suite.set("failures", str(failures))
    return suite


def qemu_name():
    """The QEMU the device is built into, as the README commands name it (--qemu)."""
    return os.environ.get("IRDMA_SIM_QEMU") or "default"


def write_junit(a, guests):
    """--junit FILE (or a new file in $IRDMA_SIM_JUNIT_DIR): the run's JUnit XML report."""
    path = a.junit
    if not path and os.environ.get("IRDMA_SIM_JUNIT_DIR"):
        d = os.environ["IRDMA_SIM_JUNIT_DIR"]
        os.makedirs(d, exist_ok=True)
        stem = os.path.join(d, f"{a.slug}-{re.sub(r'[^A-Za-z0-9.]+', '_', qemu_name())}-"
                                f"{os.path.basename(a.log)[:-4]}")
        path, n = stem + ".xml", 1
        while os.path.exists(path):           # the same log name twice (determinism's boots)
            n += 1
            path = f"{stem}-{n}.xml"
    if not path:
        return
    what = a.list or ",".join(a.test_names)
    root = ET.Element("testsuites")
    for g in guests:
        name = f"kernel {a.slug}, QEMU {qemu_name()}: {what}" + (f" (guest {g.name}, {g.nic})" if a.peer_tests else "")
        root.append(junit_suite(g, name))
    ET.indent(root)
    tmp = path + ".tmp"
    ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
    os.replace(tmp, path)


def stop_peers(g, guests):
    """Guest @g's QEMU has ended: if before its tests were done, the other guest's tests wait
    for a peer that is gone, so it is stopped too (its tests then fail without a result)."""
    if "DONE" in g.marks:
        return
    for other in guests:
        if other is not g and other.proc.poll() is None:
            print(f"guest {g.name} ended before its tests were done: stopping guest {other.name}",
                  flush=True)
            other.proc.kill()


def free_udp_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def make_guests(a):
    """The guests of this run: one, or two joined by a wire (--peer-tests)."""
    if a.peer_tests:
        # Two guests on one wire: a QEMU UDP socket pair on loopback.
        pa, pb = free_udp_ports(2)
        mac_b = next_mac(a.mac)

        def wire(local, remote):
            if a.wire == "dgram":
                return [f"dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port={local},"
                        f"remote.type=inet,remote.host=127.0.0.1,remote.port={remote}"]
            return [f"socket,id=n0,udp=127.0.0.1:{remote},localaddr=127.0.0.1:{local}"]

        return [
            Guest(a, "a", a.nic, a.test_names, a.mac, wire(pa, pb),
                  ["t.role=a", "t.ip=10.0.3.1", "t.peer=10.0.3.2"]),
            Guest(a, "b", a.peer_nic, a.peer_tests, mac_b, wire(pb, pa),
                  ["t.role=b", "t.ip=10.0.3.2", "t.peer=10.0.3.1"]),
        ]
    net = ["user,id=n0,restrict=on"]
    if a.icount is not None:
        net = ["hubport,id=n0,hubid=0"]      # slirp answers on host timers
    elif a.wire == "hub":
        net = ["hubport,id=n0,hubid=0", "user,id=u0,restrict=on",
               "hubport,id=hp1,hubid=0,netdev=u0"]
    if a.nic == "both":
        net.append("user,id=n1,restrict=on")
    return [Guest(a, "a", a.nic, a.test_names, a.mac, net, [])]


def boot(a, guests):
    """Runs the guests until every QEMU has ended or --timeout; True if it timed out, "stalled"
    if a guest had not reached /init in STALL_BEFORE_INIT s (its vCPUs' registers are then in
    its log)."""
    t0, wall0 = time.monotonic(), time.time()
    sel = selectors.DefaultSelector()
    for g in guests:
        g.start(t0, wall0)
        sel.register(g.proc.stdout, selectors.EVENT_READ, g)
    running = len(guests)
    while running:
        spent = time.monotonic() - t0
        left = a.timeout - spent
        stalled = [g for g in guests if "INIT" not in g.marks and g.proc.poll() is None]
        if left <= 0 or (stalled and spent > min(STALL_BEFORE_INIT, a.timeout)):
            for g in stalled if left > 0 else []:
                g.log_registers()
            for g in guests:
                g.proc.kill()
            return True if left <= 0 else "stalled"
        for key, _ in sel.select(timeout=min(left, 1.0)):
            chunk = os.read(key.fileobj.fileno(), 65536)
            if chunk:
                key.data.feed(chunk)
            else:
                sel.unregister(key.fileobj)
                running -= 1
                stop_peers(key.data, guests)
    return False


def timeout_why(timed_out):
    """What boot()'s @timed_out says, in a verdict's words."""
    return "stalled before /init" if timed_out == "stalled" else "host timeout"


def died_before_init(guests):
    """The kernel log line of a guest whose kernel oopsed or panicked before /init started,
    or None. No test has run then and no driver of the device is loaded (the tests load ice
    and irdma), so the device had no part in it. Under QEMU 7.2's multi-threaded TCG, 7.x
    kernels sometimes die so: an "Oops: int3" of their own runtime text patching early in boot
    (docs/user-guide.md, 'Guest tests')."""
    for g in guests:
        if "INIT" not in g.marks and g.klog_bad:
            return f"guest {g.name}: {g.klog_bad[0][1]}"
    return None


def run(a):
    a.log = a.log or os.path.join(BUILD, "logs", time.strftime("guest-%Y%m%d-%H%M%S") +
                                  f"-{os.getpid()}.log")
    os.makedirs(os.path.dirname(os.path.abspath(a.log)), exist_ok=True)
    a.initrds = {tuple(t): initrd_for(a, t) for t in (a.test_names, a.peer_tests)}
    guests = make_guests(a)
    timed_out = boot(a, guests)
    for again in range(1, BOOTS_AGAIN + 1):
        if timed_out == "stalled":
            why = f"no /init in {STALL_BEFORE_INIT} s; the vCPUs' registers are in the log"
        else:
            why = None if timed_out else died_before_init(guests)
        if not why:
            break
        # Visibly, and the dead boot's logs are kept next to the new ones.
        for g in guests:
            g.abandon(again)
        print(f"boot again ({again} of at most {BOOTS_AGAIN}): the kernel "
              f"{'stalled' if timed_out else 'died'} before /init ({why}); logs of that boot: "
              f"{', '.join(f'{g.log_path}.died{again}' for g in guests)}", flush=True)
        guests = make_guests(a)
        timed_out = boot(a, guests)
    passed = sum(g.finish(timed_out) for g in guests)
    total = sum(len(g.tests) for g in guests)
    write_junit(a, guests)
    print(f"{passed} passed, {total - passed} failed")
    return 0 if passed == total and not timed_out else 1


if __name__ == "__main__":
    sys.exit(run(parse_args(sys.argv[1:])))
