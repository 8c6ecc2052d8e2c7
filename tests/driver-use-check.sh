#!/bin/sh
# The per-kernel columns of docs/coverage.md against the driver sources of every matrix kernel
# (tools/driver-use.py; scripts/driver-sources.sh unpacks them into the cache). Exit 77 (skipped)
# when they are not there.
#   driver-use-check.sh REPO_DIR
set -eu
. "$1/scripts/config.sh"
kernels=$(echo "$KERNEL_MATRIX" | awk 'NF { print $1 }')
# shellcheck disable=SC2086
exec python3 "$1/tools/driver-use.py" "$IRDMA_SIM_CACHE/driver-src" "$1/docs/coverage.md" $kernels
