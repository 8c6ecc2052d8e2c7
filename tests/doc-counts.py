#!/usr/bin/env python3
"""Counts the documents quote that the sources determine must be the sources' counts.

  doc-counts.py REPO_DIR

Checked in README.md and docs/*.md:
  * "`SUITE:*` (N cases" and "`SUITE:*`, N cases": N is the number of tests the unit suite SUITE
    adds (tcase_add_test / tcase_add_loop_test after its suite_create in tests/unit/*.c).
A quoted count naming a suite that does not exist fails too. Exit 0 when every count agrees, 1
naming each one that does not.
"""
import glob
import os
import re
import sys

QUOTE = re.compile(r"`(\w+):\*`,? \(?(\d+) cases")


def suite_sizes(unit_dir):
    sizes = {}
    for path in sorted(glob.glob(os.path.join(unit_dir, "*.c"))):
        suite = None
        for line in open(path):
            m = re.search(r'suite_create\("(\w+)"\)', line)
            if m:
                suite = m.group(1)
                sizes.setdefault(suite, 0)
            elif suite and re.search(r"\btcase_add_(loop_)?test\(", line):
                sizes[suite] += 1
    return sizes


def main(argv):
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    repo = argv[0]
    sizes = suite_sizes(os.path.join(repo, "tests", "unit"))
    if not sizes:
        print("doc-counts: no unit suites found in tests/unit")
        return 1
    docs = [os.path.join(repo, "README.md")] + sorted(glob.glob(os.path.join(repo, "docs", "*.md")))
    wrong = checked = 0
    for doc in docs:
        if not os.path.exists(doc):
            continue
        for n, line in enumerate(open(doc), 1):
            for m in QUOTE.finditer(line):
                suite, said = m.group(1), int(m.group(2))
                checked += 1
                where = f"{os.path.relpath(doc, repo)}:{n}"
                if suite not in sizes:
                    print(f"{where}: `{suite}:*` names no unit suite")
                    wrong += 1
                elif sizes[suite] != said:
                    print(f"{where}: `{suite}:*` has {sizes[suite]} cases, the text says {said}")
                    wrong += 1
    if checked == 0:
        print("doc-counts: no counted quote found (the pattern no longer matches the documents?)")
        return 1
    if not wrong:
        print(f"doc-counts: {checked} quoted counts agree with the sources")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
