#!/usr/bin/env python3
"""Line coverage of the device's sources in a QEMU tree built with --enable-gcov.

Reads every .gcda the device's objects left in BUILD_DIR (objects whose name holds
"irdma-sim"), through gcc's own gcov (--json-format --stdout), and writes one line per source
file (lines run, lines, per cent) to REPORT, then prints the totals of the glue (hw/irdma-sim/,
the repository's hw/) and of the device core (hw/irdma-sim/emu/, the repository's emu/).
Headers are left out: their inline functions count in every file that includes them.

  scripts/gcov-lines.py BUILD_DIR REPORT
"""
import gzip
import json
import pathlib
import subprocess
import sys

MARK = "irdma-sim/"


def file_counts(build_dir):
    """{source path below hw/irdma-sim/: (lines run, lines)} over every .gcda of the device."""
    gcdas = sorted(str(p) for p in pathlib.Path(build_dir).rglob("*.gcda") if "irdma-sim" in p.name)
    if not gcdas:
        return {}
    out = subprocess.run(["gcov", "--json-format", "--stdout", *gcdas], cwd=build_dir,
                         capture_output=True, check=True).stdout
    counts = {}
    # One JSON document per object, each on a line of its own.
    for doc in out.splitlines():
        if not doc.strip():
            continue
        if doc[:2] == b"\x1f\x8b":
            doc = gzip.decompress(doc)
        for f in json.loads(doc)["files"]:
            name = f["file"]
            if MARK not in name or not name.endswith(".c"):
                continue
            rel = name[name.index(MARK) + len(MARK):]
            run, total = counts.get(rel, (0, 0))
            counts[rel] = (run + sum(1 for line in f["lines"] if line["count"] > 0),
                           total + len(f["lines"]))
    return counts


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[-1].strip(), file=sys.stderr)
        return 2
    counts = file_counts(argv[1])
    if not counts:
        print(f"gcov-lines: no coverage data of the device in {argv[1]}", file=sys.stderr)
        return 1
    groups = {"hw/": [0, 0], "emu/": [0, 0]}
    with open(argv[2], "w") as report:
        for rel, (run, total) in sorted(counts.items()):
            where = "emu/" if rel.startswith("emu/") else "hw/"
            shown = rel if where == "emu/" else "hw/" + rel
            report.write(f"{shown:<40} {run:>6} {total:>6} {100 * run / total:6.1f} %\n")
            groups[where][0] += run
            groups[where][1] += total
    for where, (run, total) in groups.items():
        pct = 100 * run / total if total else 0.0
        print(f"{where:<5} lines {run} of {total} ({pct:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
