#!/usr/bin/env bash
# Builds the guest archive "pyverbs": an extra initramfs (gzip'd newc cpio) that a guest test
# declaring "# @@ARCHIVE pyverbs" gets appended to the guest's own (scripts/run-guest.py). It
# holds rdma-core's Python bindings and rdma-core's own test suite from Debian's
# python3-pyverbs (the bindings in /usr/lib/python3/dist-packages/pyverbs, the tests, shipped
# as documentation, in /usr/share/rdma-core/tests), the Python interpreter and standard library
# they need (PYVERBS_PYTHON_PKGS), byte-compiled, and the host libraries these link (the guest's
# libibverbs and providers are the host's: python3-pyverbs is pinned to the host's version).
# The packages are fetched with apt-get download and unpacked with dpkg -x; nothing is
# installed on the host. Cached in $IRDMA_SIM_CACHE/pyverbs/KEY/pyverbs.cpio.gz, KEY from the
# package versions and this script; built in a temporary directory renamed into place at the
# end, so an interrupted build leaves nothing half-written. Prints the archive's path.
#   build-pyverbs.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

say() { echo "build-pyverbs: $*" >&2; }

# The guest's libibverbs is the host's (build-guest.sh): the bindings must be of that release.
rdma_ver=$(dpkg-query -W -f '${Version}' libibverbs1 2>/dev/null) ||
    { say "libibverbs1 is not installed on the host (scripts/setup-host.sh installs it)"; exit 1; }
pkgs=("python3-pyverbs=$rdma_ver")
for p in $PYVERBS_PYTHON_PKGS; do
    v=$(apt-cache policy "$p" | awk '/Candidate:/ { print $2 }')
    [ -n "$v" ] && [ "$v" != "(none)" ] || { say "no candidate version of $p in the apt sources"; exit 1; }
    pkgs+=("$p=$v")
done

key=$( { printf '%s\n' "${pkgs[@]}"; cat "$0"; } | sha256sum | cut -c1-16)
base=$IRDMA_SIM_CACHE/pyverbs
archive=$base/$key/pyverbs.cpio.gz
if [ -e "$archive" ]; then
    echo "$archive"
    exit 0
fi

# ---- the packages, each downloaded once into the cache ----
debs=$base/debs
mkdir -p "$debs"
files=()
for pv in "${pkgs[@]}"; do
    p=${pv%%=*} v=${pv#*=}
    f=$(ls "$debs/${p}_${v#*:}_"*.deb 2>/dev/null | head -n 1 || true)
    if [ -z "$f" ]; then
        say "downloading $p $v"
        dl=$(mktemp -d "$debs/.dl-XXXXXX")
        (cd "$dl" && apt-get -q -oAPT::Sandbox::User=root download "$pv" > /dev/null) ||
            { rm -rf "$dl"; say "apt-get download $pv failed"; exit 1; }
        f=$debs/$(basename "$(ls "$dl"/*.deb)")
        mv "$dl"/*.deb "$f"
        rm -rf "$dl"
    fi
    files+=("$f")
done

# ---- the archive's tree ----
tmp=$(mktemp -d "$base/.build-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
x=$tmp/unpacked
root=$tmp/root
for f in "${files[@]}"; do dpkg -x "$f" "$x"; done
pyver=$(ls "$x/usr/bin" | sed -n 's/^python\(3\.[0-9]*\)$/\1/p' | head -n 1)
[ -n "$pyver" ] || { say "no python3.N interpreter in $PYVERBS_PYTHON_PKGS"; exit 1; }
multiarch=$(gcc -print-multiarch)
mkdir -p "$root/usr/bin" "$root/usr/lib/$multiarch" "$root/usr/lib/python3/dist-packages" \
    "$root/usr/share/rdma-core"
cp -a "$x/usr/bin/python$pyver" "$root/usr/bin/"
ln -s "python$pyver" "$root/usr/bin/python3"
cp -a "$x/usr/lib/$multiarch"/libpython"$pyver".so.* "$root/usr/lib/$multiarch/"
# The standard library without what a test run never imports (its own tests, IDLE, Tk, the
# documentation topics, pip's bootstrap).
cp -a "$x/usr/lib/python$pyver" "$root/usr/lib/"
for d in test idlelib tkinter turtledemo ensurepip lib2to3 pydoc_data; do
    rm -rf "$root/usr/lib/python$pyver/$d"
done
rm -f "$root/usr/lib/python$pyver/lib-dynload"/_test*.so "$root/usr/lib/python$pyver/lib-dynload"/xx*.so
cp -a "$x/usr/lib/python3/dist-packages/pyverbs" "$root/usr/lib/python3/dist-packages/"
# rdma-core's tests: the package ships them as documentation, the larger files gzip'd.
cp -a "$x/usr/share/doc/rdma-core/tests" "$root/usr/share/rdma-core/"
find "$root/usr/share/rdma-core/tests" -name '*.py.gz' -exec gunzip {} +
ntests=$(ls "$root/usr/share/rdma-core/tests"/test_*.py | wc -l)
[ "$ntests" -gt 0 ] || { say "python3-pyverbs ships no tests (usr/share/doc/rdma-core/tests)"; exit 1; }

# Shared libraries: what the interpreter, its extension modules and the bindings link that the
# archive does not hold, from the host (the guest's /lib is /usr/lib: paths are made /usr/...).
libs=$(find "$root" -type f \( -name '*.so' -o -name '*.so.*' -o -path '*/bin/*' \) -print0 |
    xargs -0 env LD_LIBRARY_PATH="$root/usr/lib/$multiarch" ldd 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -v "^$root/" | sort -u)
for lib in $libs; do
    dest=$root/usr${lib#/usr}
    mkdir -p "$(dirname "$dest")"
    [ -e "$dest" ] || cp -L "$lib" "$dest"
done
missing=$(find "$root" -type f -name '*.so*' -print0 |
    xargs -0 env LD_LIBRARY_PATH="$root/usr/lib/$multiarch" ldd 2>/dev/null | grep 'not found' |
    sort -u || true)
[ -z "$missing" ] || { say "libraries not found on the host:"; echo "$missing" >&2; exit 1; }

# Byte-compiled by the archive's own interpreter: a TCG guest would otherwise compile every
# module at each import. Hash-based .pyc, so cpio's timestamps do not matter.
PYTHONHOME=$root/usr LD_LIBRARY_PATH=$root/usr/lib/$multiarch \
    "$root/usr/bin/python$pyver" -m compileall -q -j 0 --invalidation-mode unchecked-hash \
    -s "$root" -p / "$root/usr/lib/python$pyver" "$root/usr/lib/python3/dist-packages" \
    "$root/usr/share/rdma-core/tests" > "$tmp/compile.log" 2>&1 ||
    { cat "$tmp/compile.log" >&2; say "byte-compiling failed"; exit 1; }

# ---- pack: files and links only below ./usr (the guest's /lib, /lib64 are links into it) ----
( cd "$root" && find ./usr -print0 | sort -z | cpio --null -o -H newc -R 0:0 --quiet ) |
    gzip -6 > "$tmp/pyverbs.cpio.gz"
printf '%s\n' "${pkgs[@]}" > "$tmp/packages.txt"
mkdir -p "$tmp/out"
mv "$tmp/pyverbs.cpio.gz" "$tmp/packages.txt" "$tmp/out/"
rm -rf "$base/$key"
mv "$tmp/out" "$base/$key"
say "$archive ($(stat -c %s "$archive") bytes; Python $pyver, $ntests test modules; ${pkgs[*]})"
echo "$archive"
