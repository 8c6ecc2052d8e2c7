#!/bin/sh
# Everything the model implements must have a row in docs/coverage.md, so the coverage tables
# cannot silently fall behind the code: every AQ opcode a row naming its opcode and handler,
# every CQP opcode a row naming its opcode and handler (among the row's "A / B" alternatives),
# every BAR0 register a register row naming it (tools/driver-use.py --rows reads the rows' names,
# shorthand such as PF_FW_ATQ/ARQ BAL, BAH expanded). A list-model that fails, lists nothing or
# prints a line that is not "aq 0xCODE name", "cqp 0xCODE NAME" or "reg 0xOFFSET NAME" fails the
# check.
#   coverage-check.sh LIST_MODEL_BINARY COVERAGE_MD
set -eu
list=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$list" "$rows"' EXIT
"$1" > "$list" || { echo "list-model failed (exit $?)"; exit 1; }
[ -s "$list" ] || { echo "list-model listed nothing"; exit 1; }
bad=$(grep -Evx 'aq 0x[0-9A-F]{4} [a-z0-9_]+|cqp 0x[0-9A-F]{2} [A-Z0-9_]+|reg 0x[0-9A-F]{8} [A-Z0-9_]+' "$list" || true)
[ -z "$bad" ] || { echo "list-model printed lines that are not 'aq 0xCODE name', 'cqp 0xCODE NAME' or 'reg 0xOFFSET NAME': $bad"; exit 1; }
python3 "$(dirname "$0")/../tools/driver-use.py" --rows "$2" > "$rows"
missing=0
while read -r kind code name; do
    case $kind in
        aq) grep -Eq "^\| $code \| $name \|" "$2" ;;
        cqp) grep -Eq "^\| ([^|]* / )?$code( / [^|]*)? \| ([^|]* / )?$name( / [^|]*)? \|" "$2" ;;
        reg) grep -qx "$name" "$rows" ;;
    esac || { echo "docs/coverage.md has no row for $kind $code $name"; missing=1; }
done < "$list"
for kind in aq cqp reg; do
    grep -q "^$kind " "$list" || { echo "list-model listed no $kind item"; missing=1; }
done
[ $missing = 0 ] && echo "coverage.md lists all $(wc -l < "$list") implemented items" \
    "($(grep -c '^aq ' "$list") AQ opcodes, $(grep -c '^cqp ' "$list") CQP opcodes, $(grep -c '^reg ' "$list") registers)"
exit $missing
