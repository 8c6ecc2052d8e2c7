#!/usr/bin/env bash
# The fuzz command (docs/fuzzing.md): builds tests/fuzz/fuzz-device with clang, libFuzzer, ASan
# and UBSan in build/fuzz, fuzzes the device core from the kept corpus (tests/fuzz/corpus) for
# SECONDS on JOBS workers, merges what found new coverage back into the corpus, and reports the
# line coverage of emu/ that the corpus reaches (a second, instrumented build in build/fuzz-cov).
# With --qemu, the same over the whole device in QEMU (hw/ and emu/ behind it): QEMU 11.1's
# generic-fuzz target with the device's configuration (generic-fuzz-irdma-sim), built by
# scripts/build-qemu.sh --fuzz as build/qemu-fuzz-x86_64, its corpus in tests/fuzz/qemu/.
#   scripts/fuzz.sh [SECONDS [JOBS]]   default 3600 s on 1 worker: one CPU-hour
#   scripts/fuzz.sh --replay           every corpus input and kept reproducer once; exit 1 on a
#                                      finding
#   scripts/fuzz.sh --qemu [SECONDS]   the QEMU target for SECONDS (default 3600) on 1 worker,
#                                      the corpus merged and written out as qtest scripts
#                                      (tests/fuzz/qemu/traces/, replayed by the test command)
#   scripts/fuzz.sh --qemu --replay    the QEMU target's corpus and reproducers once through it
#   scripts/fuzz.sh --qemu --coverage  the line coverage of hw/ and emu/ that the QEMU target's
#                                      kept inputs reach: their qtest scripts replayed through
#                                      QEMU 11.1 built for gcov (build/qemu-cov-x86_64)
# Findings are written to build/fuzz/findings/ (crash-*, leak-*, timeout-*), the QEMU target's
# to build/qemu-fuzz/findings/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"
corpus=$repo/tests/fuzz/corpus
repro=$repo/tests/fuzz/reproducers
out=$repo/build/fuzz
findings=$out/findings

usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p' >&2; exit 2; }
replay=false
qemu=false
coverage=false
seconds=3600
jobs=1
case "${1:-}" in
    --replay) replay=true; [ $# -eq 1 ] || usage ;;
    --qemu) qemu=true
            case "${2:-}" in
                --replay) replay=true ;;
                --coverage) coverage=true ;;
                "") ;;
                *[!0-9]*) echo "fuzz: --qemu SECONDS must be a number, --replay or --coverage, not '$2'" >&2; usage ;;
                *) seconds=$2 ;;
            esac
            [ $# -le 2 ] || { echo "fuzz: --qemu takes SECONDS, --replay or --coverage, not also '$3'" >&2; usage; } ;;
    "") ;;
    *[!0-9]*) echo "fuzz: SECONDS must be a number, not '$1'" >&2; usage ;;
    *) seconds=$1
       jobs=${2:-1}
       case "$jobs" in ''|*[!0-9]*|0) echo "fuzz: JOBS must be a positive number, not '$jobs'" >&2; usage ;; esac
       [ $# -le 2 ] || usage ;;
esac

# Instrumented programs that meson's compiler checks run leave default.profraw in the cwd.
mkdir -p "$repo/build" && cd "$repo/build"

missing=()
for p in clang libclang-rt-14-dev llvm meson ninja-build libglib2.0-dev zlib1g-dev check; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "fuzz: missing packages ${missing[*]} (run as root)" >&2; exit 1; }
    apt-get install -y --no-install-recommends "${missing[@]}" > /dev/null
fi

# $1 fuzz binary, $2 log, $3 what it is, $4 corpus, $5 reproducers, then the binary's other
# arguments: every input once (-runs=0), any finding failing the command.
replay_inputs() {
    local fuzzer=$1 log=$2 what=$3 corpus=$4 repro=$5
    local inputs=("$corpus")
    shift 5
    [ -n "$(ls -A "$repro" 2> /dev/null)" ] && inputs+=("$repro")
    "$fuzzer" "$@" -runs=0 "${inputs[@]}" > "$log" 2>&1 ||
        { tail -n 40 "$log" >&2; echo "fuzz: replay found a fault" >&2; exit 1; }
    echo "fuzz: ${what}replayed $(ls "$corpus" | wc -l) corpus inputs and" \
         "$(ls "$repro" 2> /dev/null | wc -l) reproducers: no finding"
    exit 0
}

# hw/ and emu/ lines reached by the QEMU target's kept inputs, through their qtest scripts (the
# test command's replay) in a QEMU built for gcov, the fuzz target's release.
if $coverage; then
    covqemu=$repo/build/qemu-cov-x86_64
    IRDMA_SIM_QEMU=11.1 bash "$here/build-qemu.sh" --coverage "$covqemu" > /dev/null || exit 1
    objdir=$(dirname "$(readlink -f "$covqemu")")
    find "$objdir" -name '*.gcda' -delete
    mkdir -p "$repo/build/qemu-fuzz"
    status=0
    bash "$repo/tests/qemu-fuzz-replay.sh" "$covqemu" > "$repo/build/qemu-fuzz/coverage-replay.out" ||
        status=1
    grep -E '^(FAIL|PASS) qemu-fuzz: corpus' "$repo/build/qemu-fuzz/coverage-replay.out"
    report=$repo/build/qemu-fuzz/coverage.txt
    python3 "$here/gcov-lines.py" "$objdir" "$report" | sed 's/^/fuzz: QEMU target: coverage of /'
    echo "fuzz: QEMU target: coverage per file in $report"
    exit $status
fi

# The QEMU target: built with the release's patch set, whose 0003 adds the configuration.
if $qemu; then
    qcorpus=$repo/tests/fuzz/qemu/corpus
    qrepro=$repo/tests/fuzz/qemu/reproducers
    qtraces=$repo/tests/fuzz/qemu/traces
    qout=$repo/build/qemu-fuzz
    fuzzer=$repo/build/qemu-fuzz-x86_64
    target=--fuzz-target=generic-fuzz-irdma-sim
    IRDMA_SIM_QEMU=11.1 bash "$here/build-qemu.sh" --fuzz "$fuzzer" || exit 1
    mkdir -p "$qout/findings" "$qcorpus" "$qrepro"
    # QEMU's own convention for its fuzzers: no leak check (QEMU's start-up allocations are
    # never freed); UBSan's reports end the run like ASan's.
    export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    # Guest RAM (512 MiB) that the DMA fills touch counts in the process's RSS.
    limits=(-timeout=10 -rss_limit_mb=4096)
    inputs=("$qcorpus")
    [ -n "$(ls -A "$qrepro")" ] && inputs+=("$qrepro")
    $replay && replay_inputs "$fuzzer" "$qout/replay.log" "QEMU target: " "$qcorpus" "$qrepro" \
        "$target" "${limits[@]}"
    work=$qout/corpus-new
    rm -rf "$work" && mkdir -p "$work"
    status=0
    TIMEFORMAT='%U %S'
    { time (cd "$qout" && "$fuzzer" "$target" "$work" "${inputs[@]}" "${limits[@]}" \
        -max_total_time="$seconds" -artifact_prefix="$qout/findings/" -print_final_stats=1 \
        > "$qout/fuzz.log" 2>&1); } 2> "$qout/cpu-seconds" || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$qout/fuzz.log" | tail -n 1)
    cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$qout/fuzz.log" | tail -n 1)
    cpu=$(awk '{ printf "%.1f", ($1 + $2) / 60 }' "$qout/cpu-seconds")
    echo "fuzz: QEMU target: ${runs:-?} inputs run in $seconds s ($cpu CPU-minutes)," \
         "${cov:-no coverage line} (log: $qout/fuzz.log)"
    "$fuzzer" "$target" -merge=1 "$qcorpus" "$work" > "$qout/merge.log" 2>&1
    echo "fuzz: QEMU target: corpus $(ls "$qcorpus" | wc -l) inputs ($(du -sk --apparent-size "$qcorpus" | cut -f1) KiB)"
    # Every kept input as a qtest script, made anew: the test command replays them.
    tree=$(dirname "$(dirname "$(readlink -f "$fuzzer")")")
    rm -rf "$qtraces"
    mapfile -t kept < <(ls -d "$qcorpus"/* "$qrepro"/* 2> /dev/null)
    QTEST_LOG=fuzz FUZZ_SERIALIZE_QTEST=1 "$fuzzer" "$target" -runs=1 "${kept[@]}" \
        > /dev/null 2> "$qout/traces.log" || status=1
    python3 "$here/qemu-fuzz-trace.py" split "$qout/traces.log" "$qtraces" \
        "$tree/scripts/oss-fuzz/reorder_fuzzer_qtest_trace.py"
    if ls "$qout"/findings/* > /dev/null 2>&1; then
        echo "fuzz: QEMU target: findings in $qout/findings:" && ls "$qout/findings"
        status=1
    fi
    exit $status
fi

# $1 build dir, $2 extra compiler flags: the emu core and the harness with libFuzzer's hooks.
build() {
    if ! [ -e "$1/build.ninja" ] &&
       ! CC=clang meson setup "$1" "$repo" -Dfuzz=true -Db_lundef=false "${@:3}" \
            "-Dc_args=$2 -fsanitize=fuzzer-no-link" > "$1.log" 2>&1; then
        tail -n 20 "$1.log" >&2
        echo "fuzz: meson setup of $1 failed (clang and its runtimes, libclang-rt-14-dev?)" >&2
        rm -rf "$1"
        exit 1
    fi
    ninja -C "$1" tests/fuzz/fuzz-device > "$1.log" 2>&1 || { cat "$1.log" >&2; exit 1; }
}
build "$out" "-fno-sanitize-recover=all" -Db_sanitize=address,undefined
mkdir -p "$findings"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

$replay && replay_inputs "$out/tests/fuzz/fuzz-device" "$out/replay.log" "" "$corpus" "$repro" \
    -timeout=10

work=$out/corpus-new
rm -rf "$work" && mkdir -p "$work"
status=0
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-fork="$jobs")
(cd "$out" && "$out/tests/fuzz/fuzz-device" "$work" "$corpus" "${parallel[@]}" -max_len=4096 \
    -timeout=10 -max_total_time="$seconds" -artifact_prefix="$findings/" -print_final_stats=1) \
    > "$out/fuzz.log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p; s/^#\([0-9]*\)[[:space:]]*DONE.*/\1/p' \
    "$out/fuzz.log" | tail -n 1)
echo "fuzz: ${runs:-?} inputs run in $seconds s on $jobs worker(s) (log: $out/fuzz.log)"
"$out/tests/fuzz/fuzz-device" -merge=1 "$corpus" "$work" > "$out/merge.log" 2>&1
echo "fuzz: corpus $(ls "$corpus" | wc -l) inputs ($(du -sk --apparent-size "$corpus" | cut -f1) KiB)"
if ls "$findings"/* > /dev/null 2>&1; then
    echo "fuzz: findings in $findings:" && ls "$findings"
    status=1
fi

# Coverage of emu/ reached by the corpus: source-based, from a build without the sanitizers.
cov=$repo/build/fuzz-cov
build "$cov" "-fprofile-instr-generate -fcoverage-mapping" -Dc_link_args=-fprofile-instr-generate
rm -f "$cov"/*.profraw
LLVM_PROFILE_FILE="$cov/%p.profraw" "$cov/tests/fuzz/fuzz-device" -runs=0 "$corpus" > /dev/null 2>&1
llvm-profdata merge -sparse "$cov"/*.profraw -o "$cov/fuzz.profdata"
# llvm-cov 14 ignores a list of source files here (it reported glib's headers and the test
# helpers too), so everything outside emu/ is named and left out instead. It matches the paths
# as compiled, relative to the build directory (.../build/fuzz-cov/../../tests/unit/x.c), hence
# tests/ and tools/ as the last directories of a path rather than under $repo.
llvm-cov report "$cov/tests/fuzz/fuzz-device" -instr-profile="$cov/fuzz.profdata" \
    -ignore-filename-regex='^/usr/|/(tests|tools)/([^/]+/)?[^/]+$' |
    tee "$cov/report.txt" | tail -n 1 |
    awk '{ printf "fuzz: emu/ coverage by the corpus: lines %s, functions %s, regions %s\n", $10, $7, $4 }'
exit $status
