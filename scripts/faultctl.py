#!/usr/bin/env python3
"""Drive an irdma-sim device's fault plan in a running QEMU over QMP (docs/faults.md).

    faultctl.py SOCKET load PLAN        install PLAN (a new fault log starts)
    faultctl.py SOCKET clear            remove the plan (a removed device comes back)
    faultctl.py SOCKET plan             print the installed plan's path (empty: none)
    faultctl.py SOCKET log [--follow]   print the fault log; --follow: new lines as they fire
    faultctl.py SOCKET run TIMELINE     carry out a timeline: one step a line,
                                          +SECONDS load PLAN | +SECONDS clear
                                        (seconds after the previous step), printing the log
                                        lines as they fire

SOCKET is QEMU's QMP socket (-qmp unix:SOCKET,server=on,wait=off); --device ID names the
irdma-sim device (its -device id=, default nic0). A plan QEMU refuses leaves the running plan
in place; the error, naming the plan's file and line, is printed and the exit status is 1.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp import Qmp  # noqa: E402

POLL_S = 0.2


def _path(device):
    return device if device.startswith("/") else f"/machine/peripheral/{device}"


def load(qmp, device, plan):
    """Install @plan (a file path) on @device; QMP's reply."""
    return qmp.execute("qom-set", path=_path(device), property="faults",
                       value=os.path.abspath(plan))


def clear(qmp, device):
    return qmp.execute("qom-set", path=_path(device), property="faults", value="")


def fault_log(qmp, device):
    r = qmp.execute("qom-get", path=_path(device), property="x-fault-log")
    if "error" in r:
        raise RuntimeError(r["error"].get("desc", str(r["error"])))
    return r["return"]


class LogFollower:
    """Prints the fault log's lines not printed yet (a new plan starts a new log)."""

    def __init__(self, qmp, device):
        self.qmp, self.device, self.seen = qmp, device, ""

    def poll(self):
        log = fault_log(self.qmp, self.device)
        new = log[len(self.seen):] if log.startswith(self.seen) else log
        if new:
            print(new, end="", flush=True)
        self.seen = log


def parse_timeline(path):
    """[(delay_s, action, arg)] from @path; ValueError naming the line on a bad one."""
    steps = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            try:
                if not words[0].startswith("+"):
                    raise ValueError
                delay = float(words[0][1:])
                if delay < 0:
                    raise ValueError
            except ValueError:
                raise ValueError(f"{path}:{n}: '{words[0]}' is not +SECONDS") from None
            if words[1:2] == ["load"] and len(words) == 3:
                plan = os.path.join(os.path.dirname(os.path.abspath(path)), words[2])
                if not os.path.exists(plan):
                    raise ValueError(f"{path}:{n}: plan {words[2]} does not exist")
                steps.append((delay, "load", plan))
            elif words[1:] == ["clear"]:
                steps.append((delay, "clear", None))
            else:
                raise ValueError(f"{path}:{n}: '{line}' is not '+SECONDS load PLAN' or "
                                 "'+SECONDS clear'")
    return steps


def check(reply):
    if "error" in reply:
        print(f"faultctl: {reply['error'].get('desc', reply['error'])}", file=sys.stderr)
        sys.exit(1)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("socket", help="QEMU's QMP socket")
    p.add_argument("--device", default="nic0", help="the irdma-sim device's id (default nic0)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("load").add_argument("plan")
    sub.add_parser("clear")
    sub.add_parser("plan")
    sub.add_parser("log").add_argument("--follow", action="store_true")
    sub.add_parser("run").add_argument("timeline")
    a = p.parse_args(argv)

    if a.cmd == "load" and not os.path.exists(a.plan):
        p.error(f"plan {a.plan} does not exist")
    try:
        steps = parse_timeline(a.timeline) if a.cmd == "run" else []
    except (OSError, ValueError) as e:
        p.error(str(e))
    if not os.path.exists(a.socket):
        p.error(f"no QMP socket at {a.socket}")
    qmp = Qmp(a.socket)
    if a.cmd == "load":
        check(load(qmp, a.device, a.plan))
    elif a.cmd == "clear":
        check(clear(qmp, a.device))
    elif a.cmd == "plan":
        r = qmp.execute("qom-get", path=_path(a.device), property="faults")
        check(r)
        print(r["return"])
    elif a.cmd == "log" and not a.follow:
        print(fault_log(qmp, a.device), end="")
    elif a.cmd == "log":
        follower = LogFollower(qmp, a.device)
        while True:
            follower.poll()
            time.sleep(POLL_S)
    else:
        follower = LogFollower(qmp, a.device)
        for delay, action, arg in steps:
            end = time.monotonic() + delay
            while time.monotonic() < end:
                follower.poll()
                time.sleep(min(POLL_S, max(0.0, end - time.monotonic())))
            print(f"faultctl: {action} {arg or ''}".rstrip(), flush=True)
            check(load(qmp, a.device, arg) if action == "load" else clear(qmp, a.device))
        follower.poll()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
    except (OSError, RuntimeError) as e:
        print(f"faultctl: {e}", file=sys.stderr)
        sys.exit(1)
