#!/bin/sh
# coverage-check.sh and timing-doc-check.sh must fail when list-model crashes, fails, lists
# nothing or prints garbage: each is run against such stand-ins for list-model.
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
exit $wrong
