#!/usr/bin/env bash
# The mutation check (docs/mutation.md): applies every deliberate break of tests/mutations/list
# (or the named ones) to a copy of the tree, runs the unit suite on each and prints a table of
# break, caught or not, and by which tests. Exits non-zero if any break is not caught (or does
# not apply or build). Runs niced; the checkout itself is never changed.
#   scripts/mutation-check.sh [--guest-too LIST] [--test NAME]... [--keep] [NAME...]
#     --guest-too LIST  also boot each mutated build on guest list LIST (one boot at a time
#                       under /tmp/irdma-heavy.lock, QEMU built in a cache of its own)
#     --guest-cache DIR IRDMA_SIM_CACHE of those QEMU builds (never the shared cache)
#     --test NAME       run this meson test besides emu-unit (repeatable)
#     --keep            keep the copy and its build (the path is printed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

args=() names=() keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --guest-too|--guest-cache|--test)
            [ $# -ge 2 ] || { echo "mutation-check: $1 needs a value" >&2; exit 2; }
            args+=("$1" "$2"); shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "mutation-check: unknown option $1" >&2; exit 2 ;;
        *) names+=("$1"); shift ;;
    esac
done
[ ${#names[@]} -gt 0 ] || names=(--all)

work=$(mktemp -d /tmp/irdma-mutation.XXXXXX)
results=$work/results
cleanup() { if [ $keep = 0 ]; then rm -rf "$work"; else echo "kept: $work"; fi; }
trap cleanup EXIT

start=$(date +%s)
rc=0
nice -n 19 python3 "$repo/tests/mutations/mutate.py" --work "$work" --results "$results" \
    "${args[@]}" "${names[@]}" >"$work/stdout" || rc=$?
elapsed=$(( $(date +%s) - start ))
if [ ! -s "$results" ]; then
    cat "$work/stdout" >&2
    echo "mutation-check: no break measured (exit $rc; log $work/mutation.log)" >&2
    keep=1
    exit 2
fi

printf '| break | caught | by |\n|---|---|---|\n'
total=0 caught=0 by_shown=3   # failing tests named a break; the rest counted
while IFS=$'\t' read -r _ name status detail _; do
    total=$((total + 1))
    case $status in
        caught) caught=$((caught + 1)); read -r -a by_all <<<"$detail"
                by=$(printf '`%s`, ' "${by_all[@]:0:$by_shown}"); by=${by%, }
                [ ${#by_all[@]} -le $by_shown ] || by="$by and $(( ${#by_all[@]} - by_shown )) more"
                echo "| \`$name\` | yes | $by |" ;;
        not-caught) echo "| \`$name\` | **no** | - |" ;;
        *) echo "| \`$name\` | **error** | $detail |" ;;
    esac
done <"$results"
echo
echo "$caught of $total breaks caught; wall time $((elapsed / 60)) min $((elapsed % 60)) s"
if [ $rc != 0 ] || [ $caught != $total ]; then
    [ $caught = $total ] && echo "mutation-check: mutate.py exit $rc (log $work/mutation.log)" >&2
    exit 1
fi
