#!/bin/sh
# The per-kernel columns of docs/coverage.md against the driver sources of every matrix kernel,
# and the model's register offsets and CQP opcode names against the drivers' (tools/driver-use.py;
# scripts/driver-sources.sh unpacks the sources into the cache). Exit 77 (skipped) when they are
# not there.
#   driver-use-check.sh REPO_DIR LIST_MODEL_BINARY
set -eu
. "$1/scripts/config.sh"
kernels=$(echo "$KERNEL_MATRIX" | awk 'NF { print $1 }')
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$2" > "$list" || { echo "list-model failed (exit $?)"; exit 1; }
# shellcheck disable=SC2086
python3 "$1/tools/driver-use.py" --model "$list" "$IRDMA_SIM_CACHE/driver-src" "$1/docs/coverage.md" $kernels
