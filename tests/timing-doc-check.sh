#!/bin/sh
# Every timing parameter must have a row in docs/timing.md with its property name, default and
# unit, so the documented table cannot drift from emu/core/timing.c.
#   timing-doc-check.sh LIST_MODEL_BINARY TIMING_MD
set -eu
"$1" --timing | while read -r name def unit; do
    if ! grep -Fq "| \`$name\` | $def | $unit |" "$2"; then
        echo "docs/timing.md has no row '| \`$name\` | $def | $unit |'"
        exit 1
    fi
done
echo "timing.md lists all $("$1" --timing | wc -l) timing parameters"
