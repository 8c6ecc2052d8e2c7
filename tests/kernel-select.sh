#!/usr/bin/env bash
# Kernel selection as a user meets it (scripts/irdma-sim --kernel, docs/user-guide.md):
#   - refused with one line naming the problem, before anything boots, the cache unchanged:
#     an unknown name, a tree without a kernel image, a kernel without ice/irdma modules;
#   - `demo --kernel tree:DIR` on a directory laid out as a user's build (arch/x86/boot/bzImage,
#     include/config/kernel.release, lib/modules/REL as `make modules_install
#     INSTALL_MOD_PATH=DIR` leaves it), here made from the 6.12 package;
#   - `--kernel deb:FILE` with the 6.12 image package: ice and irdma probe on it.
# Prints PASS/FAIL lines and "N passed, N failed".
#   tests/kernel-select.sh
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
unset IRDMA_SIM_KERNEL IRDMA_SIM_MODULES    # this script names its kernels and modules itself
. "$repo/scripts/config.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/tests/lib-result.sh"
# The refusals run on a cache of their own, which the test command's other jobs (module-flow
# prepares a kernel with its module) do not touch.
refusal_cache=$tmp/cache
mkdir -p "$refusal_cache/kernel"
cache_state() { ls "$refusal_cache/kernel" 2> /dev/null | sort | xargs; }

# refused NAME EXPECTED-TEXT KERNEL: demo --kernel KERNEL exits 2 with one stderr line holding
# the text, boots nothing and leaves the cache's kernels as they were.
refused() {
    local before after
    before=$(cache_state)
    IRDMA_SIM_CACHE=$refusal_cache bash "$repo/scripts/irdma-sim" demo --kernel "$3" \
        > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    after=$(cache_state)
    if [ $rc = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && grep -qF "$2" "$tmp/err" &&
        ! grep -q '@@INIT' "$tmp/out" && [ "$before" = "$after" ]; then
        result PASS "$1 refused: $(cat "$tmp/err")"
    else
        result FAIL "$1: exit $rc, stderr '$(head -c 300 "$tmp/err")', cache $before -> $after"
    fi
}

# The 6.12 kernel unpacked in the cache is the raw material of the user's tree and .deb.
prepared=$(python3 "$repo/scripts/kernel.py" prepare 6.12) || { result FAIL "no 6.12 kernel"; exit 1; }
eval "$prepared"
deb=$(ls "$IRDMA_SIM_CACHE"/dl/linux-image-"$KABI"_*.deb | head -n 1)
mods=$(readlink -f "$KDIR/modroot/lib/modules/$KABI")

refused "an unknown kernel name" "unknown kernel '5.99'" 5.99
mkdir -p "$tmp/empty"
refused "a tree without a kernel image" "no kernel image in $tmp/empty" "tree:$tmp/empty"
mkdir -p "$tmp/noice/arch/x86/boot" "$tmp/noice/lib/modules/$KABI/kernel/drivers/net"
cp "$KDIR/pkg/boot/vmlinuz-$KABI" "$tmp/noice/arch/x86/boot/bzImage"
cp "$mods"/kernel/drivers/net/virtio_net.ko* "$tmp/noice/lib/modules/$KABI/kernel/drivers/net/"
refused "a kernel without ice/irdma" "has no module ice, irdma" "tree:$tmp/noice"

# A user's build: bzImage, the release file and modules_install's layout (links to the
# package's files: the tree is read, never written).
user=$tmp/linux-build
mkdir -p "$user/arch/x86/boot" "$user/include/config" "$user/lib/modules"
cp "$KDIR/pkg/boot/vmlinuz-$KABI" "$user/arch/x86/boot/bzImage"
echo "$KABI" > "$user/include/config/kernel.release"
cp -rs "$mods" "$user/lib/modules/$KABI"
bash "$repo/scripts/irdma-sim" demo --kernel "tree:$user" > "$tmp/tree.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^PASS *demo' "$tmp/tree.out" && grep -q "$KABI" "$tmp/tree.out"; then
    result PASS "demo --kernel tree:DIR (a user's build of $KABI) passed"
else
    result FAIL "demo --kernel tree:DIR: exit $rc: $(grep -E '^(FAIL|TIMEOUT)|kernel:|error' "$tmp/tree.out" | head -n 3 | xargs)"
fi
rm -rf "$IRDMA_SIM_CACHE/kernel/$(python3 "$repo/scripts/kernel.py" slug "tree:$user")" \
    "$repo/build/guest/$(python3 "$repo/scripts/kernel.py" slug "tree:$user")"

# The image package as a user's file.
if bash "$repo/scripts/build-guest.sh" --kernel "deb:$deb" > "$tmp/deb-build.out" 2>&1 &&
    python3 "$repo/scripts/run-guest.py" --kernel "deb:$deb" --tests ice-probe,irdma-probe \
        --quiet > "$tmp/deb.out" 2>&1; then
    result PASS "--kernel deb:$(basename "$deb"): $(tail -n 1 "$tmp/deb.out")"
else
    result FAIL "--kernel deb:$(basename "$deb"): $(cat "$tmp/deb-build.out" "$tmp/deb.out" |
        grep -E '^(FAIL|TIMEOUT)|kernel:|rror' | head -n 3 | xargs)"
fi
results
