#!/usr/bin/env python3
"""Checks that a QEMU trace log holds exactly the device events a -trace pattern selected.

    trace-check.py LOG [PREFIX]     PREFIX: default irdma_sim_cqp_ (-trace 'irdma_sim_cqp_*')
    trace-check.py --selftest

Reads the lines of QEMU's log trace backend ("irdma_sim_NAME detail"; with -msg
timestamp=on "PID@SEC.USEC:irdma_sim_NAME detail" in QEMU 7.2, "YYYY-MM-DDTHH:MM:SS.USECZ
irdma_sim_NAME detail" in QEMU 11.1) and fails when no event starts with PREFIX
or when any irdma_sim_ event does not (another block leaked through, or the events are not
separate QEMU trace events). Prints the events seen per name, a PASS or FAIL line and
"N passed, N failed".
"""
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import qemu_trace  # noqa: E402



def check(path, prefix):
    """(ok, message) for the trace log at @path."""
    seen = collections.Counter()
    try:
        with open(path, errors="replace") as f:
            for line in f:
                event = qemu_trace.parse(line)
                if event:
                    seen[event[1]] += 1
    except OSError as e:
        return False, f"cannot read {path}: {e.strerror}"
    ours = {n: c for n, c in seen.items() if n.startswith(prefix)}
    others = {n: c for n, c in seen.items() if not n.startswith(prefix)}
    summary = ", ".join(f"{n} {c}" for n, c in sorted(ours.items()))
    if others:
        names = ", ".join(f"{n} ({c})" for n, c in sorted(others.items()))
        return False, f"{path}: events outside {prefix}*: {names}"
    if not ours:
        return False, f"{path}: no {prefix}* event"
    return True, f"{sum(ours.values())} {prefix}* events and no other irdma_sim_ event ({summary})"


def selftest():
    """The check on made-up logs: it must pass the first two and fail the others."""
    cases = [
        ("irdma_sim_cqp_create SQ of 32 WQEs\n"
         "1234@1700000000.000001:irdma_sim_cqp_wqe create_qp (0x00) idx=1\n"
         "qemu-system-x86_64: some warning\n", True),
        ("2026-12-06T03:43:43.005968Z irdma_sim_cqp_create SQ of 2048 WQEs at 0xaa20000\n", True),
        ("2026-12-06T03:43:43.005968Z irdma_sim_qp_create qp=3 RC\n"
         "irdma_sim_cqp_wqe create_qp (0x00) idx=1\n", False),
        ("irdma_sim_cqp_wqe create_qp (0x00) idx=1\nirdma_sim_qp_create qp=3 RC\n", False),
        ("irdma_sim_mmio_read addr=0x000000 val=0x00000000\n", False),
        ("", False),
    ]
    failed = 0
    for text, want in cases:
        with tempfile.NamedTemporaryFile("w", suffix=".trace") as f:
            f.write(text)
            f.flush()
            ok, msg = check(f.name, "irdma_sim_cqp_")
        if ok != want:
            failed += 1
            print(f"FAIL    selftest: {text!r}: got {'pass' if ok else 'fail'} ({msg})")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    if argv == ["--selftest"]:
        return selftest()
    if len(argv) not in (1, 2):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    prefix = argv[1] if len(argv) == 2 else "irdma_sim_cqp_"
    ok, msg = check(argv[0], prefix)
    print(f"{'PASS' if ok else 'FAIL'}    trace-check: {msg}")
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
