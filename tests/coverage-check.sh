#!/bin/sh
# Every AQ opcode the model implements must have a row in docs/coverage.md naming its opcode
# and handler, so the coverage table cannot silently fall behind the code.
#   coverage-check.sh LIST_MODEL_BINARY COVERAGE_MD
set -eu
missing=0
"$1" | while read -r kind code name; do
    if ! grep -Eq "^\| $code \| $name \|" "$2"; then
        echo "docs/coverage.md has no row '| $code | $name |' ($kind)"
        exit 1
    fi
done || missing=1
[ $missing = 0 ] && echo "coverage.md lists all $("$1" | wc -l) implemented items"
exit $missing
