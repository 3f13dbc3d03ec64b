#!/usr/bin/env bash
# The whole suite under load (issue 26, item 14): clones the committed HEAD afresh, starts
# `stress-ng --cpu 2` beside it, and runs `npm test` RUNS times in a row (default 3).
# Each run's closing line, its duration and the load average at its end go to
# reports/suite-under-load.txt in this tree. Needs stress-ng (apt-get install stress-ng).
# Run it alone: the machine's own work beside it would make a different test.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs="${1:-3}"
command -v stress-ng >/dev/null || { echo "stress-ng is missing: apt-get install -y stress-ng" >&2; exit 1; }

clone="$(mktemp -d /tmp/ecomm-sync-under-load.XXXXXX)"
report="$root/reports/suite-under-load.txt"
mkdir -p "$root/reports"
git clone -q "$root" "$clone"
commit="$(git -C "$clone" rev-parse --short HEAD)"
echo "suite under load at $commit, $(nproc) CPUs, stress-ng --cpu 2, started $(date -u +%FT%TZ)" | tee "$report"

stress-ng --cpu 2 --timeout 0 --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; rm -rf "$clone"' EXIT

status=0
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  set +e
  (cd "$clone" && NX_DAEMON=false NX_NO_CLOUD=true CI=true npm test) > "$root/reports/suite-under-load-$run.log" 2>&1
  code=$?
  set -e
  took=$(( $(date +%s) - start ))
  counts="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$root/reports/suite-under-load-$run.log" | tail -1 || true)"
  echo "run $run: ${counts:-no count} (exit $code) in ${took} s, load average at its end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$report"
  [ "$code" -eq 0 ] || status=1
done
exit "$status"
