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
        each TRACE in a QEMU of its own, started as the fuzz target starts it; prints
        "ok TRACE (N commands)" or "fault TRACE: WHY" for each; exit 1 on a fault
A replay faults when QEMU dies, hangs (REPLAY_TIMEOUT s for a script), answers a command with
anything but OK, or does not exit cleanly when told to; its stderr's tail is kept in WHY. The
one other answer taken is qtest's own on a clock_step with nothing to step to (QEMU 11.1;
"FAIL could not advance time", "FAIL cannot advance clock ..."): a statement about the
virtual clock, which the fuzz target ignores too, not about the device.
"""
import pathlib
import re
import subprocess
import sys
import tempfile
import threading

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


def replay_one(qemu, trace):
    """None if QEMU ran every command of @trace and exited cleanly, else why not."""
    commands = [c for c in pathlib.Path(trace).read_text().splitlines() if c.strip()]
    proc = subprocess.Popen([qemu, *FUZZ_PREFIX, *fuzz_args(), "-qtest", "stdio",
                             "-qtest-log", "none"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors = []
    threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True).start()

    def feed():
        try:
            proc.stdin.write("\n".join(commands) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            pass
    threading.Thread(target=feed, daemon=True).start()
    answers, why = [], None

    def read():
        for _ in commands:
            answers.append(proc.stdout.readline())
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(REPLAY_TIMEOUT)
    if reader.is_alive():
        why = f"no answer to command {len(answers) + 1} of {len(commands)} in {REPLAY_TIMEOUT} s"
    else:
        for i, answer in enumerate(answers):
            if not answer:
                why = f"QEMU ended at command {i + 1} of {len(commands)}: {commands[i]}"
                break
            if not answer.startswith("OK") and not (
                    commands[i].split()[0] == "clock_step" and answer.startswith(CLOCK_IDLE)):
                why = f"command {i + 1} ({commands[i]}) answered {answer.strip()!r}"
                break
    proc.terminate()
    try:
        rc = proc.wait(QUIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    if why is None and rc != 0:
        why = f"QEMU exited {rc} when told to quit"
    if why:
        tail = " ".join("".join(errors).split())[-STDERR_TAIL:]
        return f"{why}{'; stderr: ' + tail if tail else ''} (exit {rc})"
    return None


def replay(qemu, traces):
    status = 0
    for trace in traces:
        why = replay_one(qemu, trace)
        if why:
            print(f"fault {trace}: {why}")
            status = 1
        else:
            n = sum(1 for c in pathlib.Path(trace).read_text().splitlines() if c.strip())
            print(f"ok {trace} ({n} commands)")
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
