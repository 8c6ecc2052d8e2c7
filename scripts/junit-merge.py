#!/usr/bin/env python3
"""junit-merge.py OUT IN...: one JUnit XML report from several (run-guest.py's boots, meson's
testlog.junit.xml): every <testsuite> of every input under one <testsuites>, written through a
temporary file so OUT is never half-written. An input that is missing or not XML is an error
naming it."""
import os
import sys
import xml.etree.ElementTree as ET


def main(out, inputs):
    root = ET.Element("testsuites")
    for path in inputs:
        try:
            top = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"junit-merge: {path}: {e}", file=sys.stderr)
            return 1
        root.extend([top] if top.tag == "testsuite" else top.findall("testsuite"))
    for attr in ("tests", "failures", "errors", "skipped"):
        root.set(attr, str(sum(int(s.get(attr, 0)) for s in root)))
    ET.indent(root)
    tmp = out + ".tmp"
    ET.ElementTree(root).write(tmp, encoding="utf-8", xml_declaration=True)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: junit-merge.py OUT IN...")
    sys.exit(main(sys.argv[1], sys.argv[2:]))
