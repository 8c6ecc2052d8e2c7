#!/usr/bin/env python3
"""Boot the test guest under QEMU/TCG with -device irdma-sim and run a list of guest tests.

The guest's /init runs the tests named on the kernel command line and reports on the serial
console (see guest-tests/init). This harness starts QEMU, timestamps every serial line into a
log file, parses the @@ markers, prints one line per test and then "N passed, N failed".
Exit status: 0 only if every requested test passed.
"""
import argparse
import os
import re
import selectors
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(REPO, "build")
MAC_RE = re.compile(r"^([0-9a-f]{2}:){5}[0-9a-f]{2}$")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tests", help="comma-separated guest tests (guest-tests/tests/NAME.sh)")
    p.add_argument("--list", help="a named list: guest-tests/lists/NAME")
    p.add_argument("--qemu", default=os.path.join(BUILD, "qemu-system-x86_64"))
    p.add_argument("--kernel", default=os.path.join(BUILD, "guest", "vmlinux"))
    p.add_argument("--initrd", default=os.path.join(BUILD, "guest", "initramfs.cpio.gz"))
    p.add_argument("--mac", default="52:54:00:12:34:56", help="MAC of the irdma-sim device")
    p.add_argument("--msix", type=int, default=None, help="msix-vectors property")
    p.add_argument("--no-device", action="store_true", help="boot without -device irdma-sim")
    p.add_argument("--smp", type=int, default=2)
    p.add_argument("--mem", default="1G")
    p.add_argument("--test-timeout", type=int, default=120, help="per test, seconds (guest)")
    p.add_argument("--timeout", type=int, default=600, help="whole boot, seconds (host)")
    p.add_argument("--log", help="serial log file (default build/logs/guest-TIME.log)")
    p.add_argument("--append", default="", help="extra kernel command line")
    p.add_argument("--quiet", action="store_true", help="do not echo guest output")
    p.add_argument("--trace", help="QEMU trace events to enable (e.g. 'irdma_sim_*'), "
                   "written to the log file with a .trace suffix")
    a = p.parse_args(argv)
    if bool(a.tests) == bool(a.list):
        p.error("give exactly one of --tests or --list")
    if not MAC_RE.match(a.mac.lower()):
        p.error(f"--mac {a.mac!r} is not a MAC address like 52:54:00:12:34:56")
    if a.list:
        path = os.path.join(REPO, "guest-tests", "lists", a.list)
        if not os.path.exists(path):
            p.error(f"--list {a.list!r}: no file {path}")
        with open(path) as f:
            a.test_names = [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]
    else:
        a.test_names = [t for t in a.tests.split(",") if t]
    for t in a.test_names:
        if not re.match(r"^[A-Za-z0-9_.-]+$", t):
            p.error(f"test name {t!r} has characters a test name cannot have")
        if not os.path.exists(os.path.join(REPO, "guest-tests", "tests", t + ".sh")):
            p.error(f"unknown guest test {t!r} (no guest-tests/tests/{t}.sh)")
    for what, path in (("--qemu", a.qemu), ("--kernel", a.kernel), ("--initrd", a.initrd)):
        if not os.path.exists(path):
            p.error(f"{what} {path} does not exist (run scripts/irdma-sim test to build it)")
    return a


def qemu_command(a):
    # log_buf_len: the tests read ice's dynamic-debug output back from dmesg.
    append = ["console=ttyS0,115200", "panic=-1", "loglevel=4", "log_buf_len=16M",
              "t.tests=" + ",".join(a.test_names), f"t.tmo={a.test_timeout}",
              "t.mac=" + a.mac.lower()]
    cmd = [a.qemu, "-machine", "q35", "-accel", "tcg", "-m", a.mem, "-smp", str(a.smp),
           "-nographic", "-no-reboot", "-nodefaults", "-serial", "stdio", "-monitor", "none",
           "-kernel", a.kernel, "-initrd", a.initrd]
    if not a.no_device:
        dev = f"irdma-sim,netdev=n0,mac={a.mac.lower()}"
        if a.msix is not None:
            dev += f",msix-vectors={a.msix}"
            append.append(f"t.msix={a.msix}")
        # In a root port's slot, as a NIC card is: the link status ice reads is the slot's.
        cmd += ["-netdev", "user,id=n0,restrict=on",
                "-device", "pcie-root-port,id=rp0,chassis=1,slot=1", "-device", dev + ",bus=rp0"]
    if a.trace:
        cmd += ["-trace", a.trace, "-D", a.log + ".trace"]
    cmd += ["-append", " ".join(append + ([a.append] if a.append else []))]
    return cmd


def run(a):
    log_path = a.log = a.log or os.path.join(BUILD, "logs",
                                             time.strftime("guest-%Y%m%d-%H%M%S.log"))
    os.makedirs(os.path.dirname(os.path.abspath(log_path)), exist_ok=True)
    cmd = qemu_command(a)
    results, marks = {}, {}
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        log.write("# " + " ".join(cmd) + "\n")
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        buf = b""
        timed_out = False
        in_dmesg = False
        while True:
            left = a.timeout - (time.monotonic() - t0)
            if left <= 0:
                timed_out = True
                proc.kill()
                break
            if not sel.select(timeout=min(left, 1.0)):
                if proc.poll() is not None:
                    break
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").rstrip("\r")
                now = time.monotonic() - t0
                log.write(f"[{now:8.3f}] {line}\n")
                if line.startswith("@@DMESG-BEGIN"):
                    in_dmesg = True
                elif line.startswith("@@DMESG-END"):
                    in_dmesg = False
                m = re.search(r"@@(INIT|DONE)\b", line)
                if m:
                    marks[m.group(1)] = now
                m = re.search(r"@@RESULT (\S+) (PASS|FAIL|TIMEOUT)\s*(.*)$", line)
                if m:
                    results[m.group(1)] = (m.group(2), m.group(3))
                    print(f"{m.group(2):7} {m.group(1)} {m.group(3)}".rstrip(), flush=True)
                elif not a.quiet and not in_dmesg and not line.startswith("@@DMESG"):
                    print("  | " + line, flush=True)
        rc = proc.wait()
        log.write(f"# qemu exit {rc}{' (host timeout)' if timed_out else ''}\n")

    passed = sum(1 for t in a.test_names if results.get(t, ("",))[0] == "PASS")
    failed = len(a.test_names) - passed
    for t in a.test_names:
        if t not in results:
            why = "host timeout" if timed_out else f"guest ended without a result (qemu exit {rc})"
            print(f"FAIL    {t} no result: {why}")
    if "INIT" in marks:
        done = f", tests done at {marks['DONE']:.2f} s" if "DONE" in marks else ""
        print(f"boot: /init at {marks['INIT']:.2f} s{done}; log {log_path}")
    else:
        print(f"boot: /init never started; log {log_path}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and not timed_out else 1


if __name__ == "__main__":
    sys.exit(run(parse_args(sys.argv[1:])))
