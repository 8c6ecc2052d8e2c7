#!/usr/bin/env python3
"""The QEMU fuzz target's inputs as qtest scripts, and their replay (docs/fuzzing.md).

QEMU's generic-fuzz target (generic-fuzz-irdma-sim, qemu-patches/11.1/) turns each input into
qtest commands; run with QTEST_LOG=fuzz FUZZ_SERIALIZE_QTEST=1 it logs them, the DMA fills it
makes on the device's reads tagged [DMA]. QEMU's scripts/oss-fuzz/reorder_fuzzer_qtest_trace.py
moves each fill before the command that made the device read it: the result is a qtest script
that any qemu-system-x86_64 with the device replays with -qtest stdio, no fuzzing build needed.

  qemu-fuzz-trace.py args
        the QEMU arguments of the fuzz configuration (from the patch that adds it)
  qemu-fuzz-trace.py split LOG OUTDIR REORDER
        LOG: the fuzz target's stderr over input files (libFuzzer's "Running: FILE" before
        each); writes OUTDIR/NAME.qtest for each input FILE, reordered by REORDER
  qemu-fuzz-trace.py replay QEMU TRACE...
        the TRACEs one after another in one QEMU, started as the fuzz target starts it, with a
        machine reset between two (a QEMU start costs 20 to 90 ms of CPU, most of a script's
        replay); prints "ok TRACE (N commands)" or "fault TRACE: WHY (ALONE)" for each, ALONE
        saying whether it faults in a QEMU of its own too; exit 1 on a fault
A replay faults when QEMU dies, hangs (REPLAY_TIMEOUT s for a script), answers a command with
anything but OK, or does not exit cleanly when told to; its stderr's tail is kept in WHY. The
one other answer taken is qtest's own on a clock_step with nothing to step to (QEMU 11.1;
"FAIL could not advance time", "FAIL cannot advance clock ..."): a statement about the
virtual clock, which the fuzz target ignores too, not about the device.
"""
import os
import pathlib
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp import Qmp  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
PATCH = ROOT / "qemu-patches" / "11.1" / "0003-add-irdma-sim-generic-fuzz-config.patch"
CONFIG_NAME = "irdma-sim"
# qtest's answers (QEMU 11.1; 7.2 answers OK) to a clock_step the virtual clock cannot take.
CLOCK_IDLE = ("FAIL could not advance time", "FAIL cannot advance clock")
# As tests/qtest/fuzz/generic_fuzz.c starts the machine around the configuration's arguments.
FUZZ_PREFIX = ["-display", "none", "-machine", "accel=qtest", "-m", "512M"]
REPLAY_TIMEOUT = 60
QUIT_TIMEOUT = 10
STDERR_TAIL = 400


def fuzz_args():
    """The .args of the configuration the patch adds: its C string literals joined."""
    added = "\n".join(line[1:] for line in PATCH.read_text().splitlines()
                      if line.startswith("+") and not line.startswith("+++"))
    entry = re.search(r'\.name\s*=\s*"%s",\s*\.args\s*=\s*((?:"[^"]*"\s*)+),' % CONFIG_NAME, added)
    if not entry:
        sys.exit(f"qemu-fuzz-trace: {PATCH} has no .args for the {CONFIG_NAME} configuration")
    return "".join(re.findall(r'"([^"]*)"', entry.group(1))).split()


def split(log, outdir, reorder):
    """One reordered qtest script per input of a QTEST_LOG run over input files."""
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    inputs, name = {}, None
    for line in pathlib.Path(log).read_text(errors="replace").splitlines():
        m = re.match(r"Running: (.*)$", line)
        if m:
            name = pathlib.Path(m.group(1)).name
            inputs[name] = []
        elif name and ("[R +" in line or line.startswith("[DMA]")):
            inputs[name].append(line)
    for name, lines in inputs.items():
        with tempfile.NamedTemporaryFile("w", suffix=".log") as raw:
            raw.write("\n".join(lines) + "\n")
            raw.flush()
            trace = subprocess.run([sys.executable, reorder, raw.name], check=True,
                                   capture_output=True, text=True).stdout
        (outdir / f"{name}.qtest").write_text(trace)
    print(f"qemu-fuzz-trace: {len(inputs)} qtest scripts in {outdir}")


class Replayer:
    """One QEMU, started as the fuzz target starts its machine, that replays qtest scripts one
    after another with a machine reset between two (QMP system_reset). The fuzz target starts
    each input from a machine just made; a reset one differs in its clock and in memory an
    earlier script wrote, but each script writes every buffer it makes the device read (the DMA
    fills), and any sequence of scripts and resets is one a guest may run."""

    def __init__(self, qemu):
        self.dir = tempfile.TemporaryDirectory(prefix="qemu-fuzz-replay-")
        sock = os.path.join(self.dir.name, "qmp")
        self.proc = subprocess.Popen([qemu, *FUZZ_PREFIX, *fuzz_args(), "-qtest", "stdio",
                                      "-qtest-log", "none",
                                      "-qmp", f"unix:{sock},server=on,wait=off"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.errors = []
        self.answers = queue.Queue()
        self.stderr_reader = threading.Thread(
            target=lambda: self.errors.append(self.proc.stderr.read()), daemon=True)
        self.stderr_reader.start()
        threading.Thread(target=self._read, daemon=True).start()
        self.qmp = Qmp(sock)
        self.qmp.set_timeout(REPLAY_TIMEOUT)
        self.used = False

    def _read(self):
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put("")                    # QEMU's end

    def run(self, commands):
        """None if QEMU answered every command of the script @commands as it should."""
        if self.used:
            try:
                self.qmp.execute("system_reset")
                self.qmp.wait_event("RESET")
            except (OSError, RuntimeError, ValueError) as e:
                return f"the reset before it failed: {e}"
        self.used = True

        def feed():
            try:
                self.proc.stdin.write("\n".join(commands) + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
        threading.Thread(target=feed, daemon=True).start()
        deadline = time.monotonic() + REPLAY_TIMEOUT
        for i, command in enumerate(commands):
            try:
                answer = self.answers.get(timeout=max(0, deadline - time.monotonic()))
            except queue.Empty:
                return f"no answer to command {i + 1} of {len(commands)} in {REPLAY_TIMEOUT} s"
            if not answer:
                return f"QEMU ended at command {i + 1} of {len(commands)}: {command}"
            if not answer.startswith("OK") and not (
                    command.split()[0] == "clock_step" and answer.startswith(CLOCK_IDLE)):
                return f"command {i + 1} ({command}) answered {answer.strip()!r}"
        return None

    def close(self):
        """QEMU told to quit; None if it exited cleanly, else its exit status."""
        self.proc.terminate()
        try:
            rc = self.proc.wait(QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.dir.cleanup()
        return None if rc == 0 else f"QEMU exited {rc} when told to quit"

    def stderr_tail(self):
        """The end of what QEMU wrote to stderr, once it has exited (close())."""
        self.stderr_reader.join(QUIT_TIMEOUT)
        tail = " ".join("".join(self.errors).split())[-STDERR_TAIL:]
        return f"; stderr: {tail}" if tail else ""


def commands_of(trace):
    return [c for c in pathlib.Path(trace).read_text().splitlines() if c.strip()]


def replay_alone(qemu, trace):
    """None if @trace replays in a QEMU of its own, else why not."""
    r = Replayer(qemu)
    why = r.run(commands_of(trace))
    quit_why = r.close()
    why = why or quit_why
    return why + r.stderr_tail() if why else None


def replay(qemu, traces):
    """Each of @traces in turn in one QEMU, reset between two; a script that faults is replayed
    again in a QEMU of its own, to tell whether it needs the scripts before it, and the rest go
    on in a new QEMU."""
    status, r, before = 0, None, None
    for trace in traces:
        r = r or Replayer(qemu)
        commands = commands_of(trace)
        why = r.run(commands)
        if why:
            r.close()
            why += r.stderr_tail()
            r = None
            alone = replay_alone(qemu, trace)
            where = ("alone too" if alone else "alone it passes" +
                     (f": it faults after {before} and a reset, in one QEMU" if before else ""))
            print(f"fault {trace}: {why} ({where})")
            status = 1
        else:
            print(f"ok {trace} ({len(commands)} commands)")
        before = trace if r else None
    if r:
        why = r.close()
        if why:
            print(f"fault {traces[-1]}: {why}{r.stderr_tail()} (the last script of its QEMU)")
            status = 1
    return status


def main(argv):
    if len(argv) == 2 and argv[1] == "args":
        print(" ".join(fuzz_args()))
        return 0
    if len(argv) == 5 and argv[1] == "split":
        split(*argv[2:])
        return 0
    if len(argv) >= 3 and argv[1] == "replay":
        return replay(argv[2], argv[3:])
    print(__doc__.split("\n\n")[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
