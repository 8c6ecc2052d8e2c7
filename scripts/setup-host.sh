#!/usr/bin/env bash
# Installs the host packages the build, the QEMU build and the guest image need, and a deb-src
# entry for the configured Debian mirror (for `apt-get source qemu`). Idempotent: does nothing
# when everything is present.
#   setup-host.sh            every package the commands use
#   setup-host.sh --python   python3 alone: what scripts/irdma-sim needs to check its arguments
#                            before it installs the rest (a minimal bookworm has no python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/config.sh"

[ "$(id -u)" = 0 ] || { echo "setup-host: must run as root (apt-get install)" >&2; exit 1; }

case "${1:-}" in
    "") wanted=$(echo $HOST_PKGS_BUILD $HOST_PKGS_QEMU $HOST_PKGS_GUEST $HOST_PKGS_BENCH $HOST_PKGS_MODULE) ;;
    --python) wanted=python3 ;;
    *) echo "setup-host: unknown option '$1' (--python or none)" >&2; exit 2 ;;
esac
# One dpkg-query for every package (one call per package took seconds on each command).
wanted=$(echo $wanted | tr ' ' '\n' | sort -u)
# shellcheck disable=SC2086
# dpkg-query exits 1 when a package is unknown to dpkg (any fresh machine): its list still counts.
installed=$({ dpkg-query -W -f='${Package} ${Status}\n' $wanted 2>/dev/null || true; } |
            awk '$NF == "installed" && $(NF - 1) == "ok" { print $1 }' | sort -u)
mapfile -t missing < <(comm -23 <(echo "$wanted") <(echo "$installed"))

have_deb_src() {
    grep -rqsE '^[[:space:]]*(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/
}

add_deb_src() {
    # Mirror every configured Debian "deb" source as "deb-src", whatever the format.
    local f out=/etc/apt/sources.list.d/irdma-sim-deb-src.sources
    : > "$out.tmp"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] || continue
        awk 'BEGIN{RS=""; ORS="\n\n"} /URIs:[^\n]*debian/ && /Types:[^\n]*deb/ {
                 sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >> "$out.tmp"
    done
    if [ -f /etc/apt/sources.list ]; then
        sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(http[^ ]*debian[^ ]*\)[[:space:]]\+\(.*\)$/Types: deb-src\nURIs: \2\nSuites: \3\n/p' \
            /etc/apt/sources.list | awk '{ if ($1=="Suites:") { n=split($0,a," "); printf "Suites: %s\nComponents:", a[2]; for(i=3;i<=n;i++) printf " %s", a[i]; printf "\n" } else print }' >> "$out.tmp"
    fi
    if ! [ -s "$out.tmp" ]; then
        rm -f "$out.tmp"
        echo "setup-host: no Debian 'deb' source found to mirror as deb-src" >&2
        exit 1
    fi
    mv "$out.tmp" "$out"
    echo "setup-host: added $out"
}

need_update=0
if ! have_deb_src; then add_deb_src; need_update=1; fi
[ ${#missing[@]} -eq 0 ] || need_update=1
stamp=/var/lib/apt/periodic/irdma-sim-update
if [ $need_update = 1 ] || ! [ -e "$stamp" ]; then
    apt-get update -q
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup-host: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
