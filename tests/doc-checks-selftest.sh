#!/bin/sh
# coverage-check.sh and timing-doc-check.sh must fail when list-model crashes, fails, lists
# nothing or prints garbage: each is run against such stand-ins for list-model. doc-counts.py
# must fail on a document quoting a wrong case count or a suite that does not exist, and
# driver-use.py on a coverage.md with a per-kernel cell changed (when the drivers' sources are
# there) and, without sources, must skip (77), never pass.
#   doc-checks-selftest.sh TESTS_DIR COVERAGE_MD TIMING_MD
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nkill -SEGV $$\n' > "$tmp/crashes"
printf '#!/bin/sh\nexit 3\n' > "$tmp/fails"
printf '#!/bin/sh\nexit 0\n' > "$tmp/silent"
printf '#!/bin/sh\necho "Segmentation fault"\n' > "$tmp/garbage"
chmod +x "$tmp"/*
wrong=0
expect_failure() {      # expect_failure CHECK LIST_MODEL DOC
    if sh "$tests/$1" "$tmp/$2" "$3" > "$tmp/out" 2>&1; then
        echo "FAIL $1 passed with a list-model that $2: $(cat "$tmp/out")"
        wrong=$((wrong + 1))
    else
        echo "ok $1 fails with a list-model that $2: $(head -n 1 "$tmp/out")"
    fi
}
tests=$1
for lm in crashes fails silent garbage; do
    expect_failure coverage-check.sh "$lm" "$2"
    expect_failure timing-doc-check.sh "$lm" "$3"
done
expect_status() {       # expect_status WANT WHAT CMD...
    want=$1 what=$2
    shift 2
    "$@" > "$tmp/out" 2>&1 && got=0 || got=$?
    if [ "$got" = "$want" ]; then
        echo "ok $what: exit $got: $(head -n 1 "$tmp/out")"
    else
        echo "FAIL $what: exit $got, not $want: $(cat "$tmp/out")"
        wrong=$((wrong + 1))
    fi
}
repo=$(cd "$tests/.." && pwd)
# doc-counts.py on a stand-in repository: the real unit suites, one document.
mkdir -p "$tmp/repo/tests" "$tmp/repo/docs"
: > "$tmp/repo/README.md"
ln -s "$repo/tests/unit" "$tmp/repo/tests/unit"
echo '`transport:*` (1 cases)' > "$tmp/repo/docs/x.md"
expect_status 1 "doc-counts.py fails on a wrong count" python3 "$tests/doc-counts.py" "$tmp/repo"
echo '`no_such_suite:*` (1 cases)' > "$tmp/repo/docs/x.md"
expect_status 1 "doc-counts.py fails on an unknown suite" python3 "$tests/doc-counts.py" "$tmp/repo"
# driver-use.py: no sources is a skip; a changed cell (GL_MNG_FWSM: 6.1's ice has no such
# register) a failure.
. "$repo/scripts/config.sh"
expect_status 77 "driver-use.py skips without sources" \
    python3 "$repo/tools/driver-use.py" "$tmp/none" "$2" 6.1
kernels=$(echo "$KERNEL_MATRIX" | awk 'NF { print $1 }')
have=yes
for k in $kernels; do [ -d "$IRDMA_SIM_CACHE/driver-src/$k/drivers" ] || have=no; done
if [ $have = yes ]; then
    sed 's/^| GL_MNG_FWSM | \([^|]*\) | — |/| GL_MNG_FWSM | \1 | used |/' "$2" > "$tmp/coverage.md"
    cmp -s "$2" "$tmp/coverage.md" && { echo "FAIL the GL_MNG_FWSM row was not changed"; wrong=$((wrong + 1)); }
    # shellcheck disable=SC2086
    expect_status 1 "driver-use.py fails on a changed cell" \
        python3 "$repo/tools/driver-use.py" "$IRDMA_SIM_CACHE/driver-src" "$tmp/coverage.md" $kernels
    grep -q "^register row 'GL_MNG_FWSM', 6.1: " "$tmp/out" ||
        { echo "FAIL driver-use.py did not name the changed row"; wrong=$((wrong + 1)); }
fi
exit $wrong
