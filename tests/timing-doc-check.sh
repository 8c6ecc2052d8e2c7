#!/bin/sh
# Every timing parameter must have a row in docs/timing.md with its property name, default and
# unit, so the documented table cannot drift from emu/core/timing.c. A list-model that fails, lists
# nothing or prints a line that is not "timing-NAME DEFAULT UNIT" fails the check.
#   timing-doc-check.sh LIST_MODEL_BINARY TIMING_MD
set -eu
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$1" --timing > "$list" || { echo "list-model --timing failed (exit $?)"; exit 1; }
[ -s "$list" ] || { echo "list-model --timing listed nothing"; exit 1; }
bad=$(grep -Evx 'timing-[a-z0-9-]+ [0-9]+ [^ ]+' "$list" || true)
[ -z "$bad" ] || { echo "list-model printed lines that are not 'timing-NAME DEFAULT UNIT': $bad"; exit 1; }
missing=0
while read -r name def unit; do
    if ! grep -Fq "| \`$name\` | $def | $unit |" "$2"; then
        echo "docs/timing.md has no row '| \`$name\` | $def | $unit |'"
        missing=1
    fi
done < "$list"
[ $missing = 0 ] && echo "timing.md lists all $(wc -l < "$list") timing parameters"
exit $missing
