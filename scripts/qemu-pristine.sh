# The pristine QEMU tree the device's upstream series is made against and applied to
# (scripts/qemu-series.sh, tests/qemu-series-check.sh), sourced after config.sh:
#   pristine_resolve [SOURCE] [tools]
#                               sets PSOURCE (a release tarball or a source tree) and PVERSION
#                               (its VERSION); with "tools", PTOOLS too (QEMU 11.1's build tools,
#                               for PYTHONPATH)
#   pristine_tree DIR           unpacks or copies PSOURCE into the new directory DIR as a git
#                               repository whose one commit is the release as it is
# SOURCE is a QEMU 11.1.x release tarball (qemu-11.1.1.tar.xz from qemu.org, or Debian's orig
# tarball) or a source tree (a git checkout of v11.1.x: its .git and build/ are not copied).
# Without one, it is Debian's orig tarball of QEMU 11.1 (upstream 11.1.x without its prebuilt
# firmware and roms/ sources, Debian's own patches not applied), from the cache where
# scripts/qemu-source.py keeps it (fetched first if it is not there), checked against the
# SHA-256 its .dsc gives. Errors are one line on stderr; the caller exits 2.
# shellcheck shell=bash

PRISTINE_RELEASE=11.1
# What a QEMU source tree has at its top (as scripts/qemu-source.py checks tree:PATH).
PRISTINE_MARKERS="VERSION configure meson.build hw/meson.build include/qemu/osdep.h"

pristine_err() { echo "qemu-series: $*" >&2; return 2; }

pristine_resolve() {
    local src=${1:-} tools=${2:-} QDSC= QTOOLS= vars orig want got
    PTOOLS=
    # A source named is checked before anything is fetched.
    if [ -n "$src" ]; then
        pristine_check "$src" || return 2
        [ -z "$tools" ] && return 0
    fi
    vars=$(python3 "$repo/scripts/qemu-source.py" fetch "$PRISTINE_RELEASE") || return 2
    eval "$vars"
    PTOOLS=$QTOOLS
    [ -z "$src" ] || return 0
    # The orig tarball's name and SHA-256, from the .dsc's Checksums-Sha256 field.
    read -r want orig < <(awk '/^Checksums-Sha256:/ {f = 1; next} /^[^ ]/ {f = 0}
                               f && $3 ~ /\.orig\.tar\./ {print $1, $3}' "$QDSC") || true
    [ -n "$orig" ] || { pristine_err "$QDSC names no orig tarball"; return 2; }
    src=$(dirname "$QDSC")/$orig
    [ -f "$src" ] || { pristine_err "no QEMU source tarball $src (its .dsc is there)"; return 2; }
    got=$(sha256sum "$src" | cut -d' ' -f1)
    [ "$want" = "$got" ] ||
        { pristine_err "$src: SHA-256 $got, its .dsc says $want"; return 2; }
    pristine_check "$src"
}

# pristine_check SOURCE: sets PSOURCE and PVERSION, or refuses a source that is not QEMU 11.1.x.
pristine_check() {
    local m
    [ -e "$1" ] || { pristine_err "no such QEMU source: $1"; return 2; }
    PSOURCE=$(readlink -f "$1")
    if [ -d "$PSOURCE" ]; then
        for m in $PRISTINE_MARKERS; do
            [ -e "$PSOURCE/$m" ] || { pristine_err "$PSOURCE is not a QEMU source tree (no $m)"; return 2; }
        done
        PVERSION=$(cat "$PSOURCE/VERSION")
    else
        PVERSION=$(tar -xOf "$PSOURCE" --wildcards --no-wildcards-match-slash '*/VERSION' 2> /dev/null) ||
            { pristine_err "$PSOURCE is not a QEMU release tarball (no VERSION at its top)"; return 2; }
    fi
    case $PVERSION in
        "$PRISTINE_RELEASE".*) ;;
        *) pristine_err "$PSOURCE is QEMU ${PVERSION:-?}: the series is made for QEMU $PRISTINE_RELEASE.x"
           return 2 ;;
    esac
}

pristine_tree() {
    local dir=$1 m
    mkdir "$dir" || return 2
    if [ -d "$PSOURCE" ]; then
        rsync -a --exclude=/.git/ --exclude=/build/ "$PSOURCE/" "$dir/"
    else
        tar -xf "$PSOURCE" -C "$dir" --strip-components=1 ||
            { pristine_err "$PSOURCE does not unpack"; return 2; }
    fi
    for m in $PRISTINE_MARKERS; do
        [ -e "$dir/$m" ] || { pristine_err "$PSOURCE is not a QEMU source tree (no $m)"; return 2; }
    done
    # A throwaway repository: no background gc, objects stored uncompressed (faster).
    git -C "$dir" init -q &&
        git -C "$dir" config gc.auto 0 && git -C "$dir" config core.looseCompression 0 &&
        git -C "$dir" add -A -f &&
        git -C "$dir" -c user.name=irdma-sim -c user.email=irdma-sim@invalid \
            commit -q -m "QEMU $PVERSION as released" ||
        { pristine_err "git could not commit the tree in $dir"; return 2; }
}
