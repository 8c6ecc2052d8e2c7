#!/usr/bin/env python3
"""Guest tests may not lose a helper's status: every $(...) that runs a helper of
guest-tests/tests/lib.sh must be tested. Allowed forms of `$(helper ...)`:

    x=$(helper ...) || ...             the value, and what happens when there is none
    [ "$(helper ...)" = WANT ]          compared with what the test expects (also !=)
    echo "... $(helper ...) ..."        in a message (echo, fail)

Helpers named *_lines print the matching lines of a log, or nothing: exempt.
    guest-lint.py GUEST_TESTS_DIR
Prints each offending line as FILE:LINE: TEXT; exit 1 if there is one.
"""
import glob
import os
import re
import sys


def logical_lines(path):
    """(first line number, text) with backslash continuations joined and comments dropped."""
    out, buf, start = [], "", None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if start is None:
                start = n
                if line.lstrip().startswith("#"):
                    start = None
                    continue
            if line.endswith("\\"):
                buf += line[:-1] + " "
                continue
            out.append((start, buf + line))
            buf, start = "", None
    return out


def main(argv):
    tests = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..",
                                                        "guest-tests", "tests")
    lib = os.path.join(tests, "lib.sh")
    with open(lib) as f:
        helpers = re.findall(r"^([a-z_][a-z0-9_]*)\(\) \{", f.read(), re.M)
    checked = [h for h in helpers if not h.endswith("_lines")]
    if len(checked) < 10:
        print(f"{lib}: found only {len(checked)} helpers; is this lib.sh?")
        return 1
    use = re.compile(r"\$\((" + "|".join(checked) + r")\b")
    bad = 0
    files = sorted(glob.glob(os.path.join(tests, "*.sh")))
    for path in files:
        for n, line in logical_lines(path):
            for m in use.finditer(line):
                before, after = line[:m.start()], line[m.end():]
                # the substitution's end: its closing parenthesis at depth 0
                depth, end = 1, None
                for i, c in enumerate(after):
                    depth += c == "("
                    depth -= c == ")"
                    if depth == 0:
                        end = i
                        break
                rest = after[end + 1:] if end is not None else ""
                if re.search(r"(^|[;&|()]|\bthen|\bdo|\belse)\s*(local\s+)?\w+=$", before) and \
                        re.match(r"\s*\|\|", rest):
                    continue
                if re.search(r'\[\s+"$', before) and re.match(r'"\s+!?=\s', rest):
                    continue
                if re.search(r'(^|[;&|]|\bthen|\bdo|\belse)\s*(echo|fail)\s+"[^"]*$', before):
                    continue
                print(f"{os.path.relpath(path)}:{n}: $({m.group(1)} ...) without a status "
                      f"check: {line.strip()}")
                bad += 1
    if bad:
        print(f"{bad} uses of lib.sh helpers lose their status (write x=$(helper ...) || fail ...)")
        return 1
    print(f"guest-lint: {len(files)} files, every $(...) of {len(checked)} lib.sh helpers checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
