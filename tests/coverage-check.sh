#!/bin/sh
# Every AQ opcode the model implements must have a row in docs/coverage.md naming its opcode
# and handler, so the coverage table cannot silently fall behind the code. A list-model that
# fails, lists nothing or prints a line that is not "aq 0xCODE name" fails the check.
#   coverage-check.sh LIST_MODEL_BINARY COVERAGE_MD
set -eu
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$1" > "$list" || { echo "list-model failed (exit $?)"; exit 1; }
[ -s "$list" ] || { echo "list-model listed nothing"; exit 1; }
bad=$(grep -Evx 'aq 0x[0-9A-F]{4} [a-z0-9_]+' "$list" || true)
[ -z "$bad" ] || { echo "list-model printed lines that are not 'aq 0xCODE name': $bad"; exit 1; }
missing=0
while read -r kind code name; do
    if ! grep -Eq "^\| $code \| $name \|" "$2"; then
        echo "docs/coverage.md has no row '| $code | $name |' ($kind)"
        missing=1
    fi
done < "$list"
[ $missing = 0 ] && echo "coverage.md lists all $(wc -l < "$list") implemented items"
exit $missing
