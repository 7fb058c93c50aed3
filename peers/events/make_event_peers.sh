#!/bin/bash
# Grades the peers on vectors/event_profile.json through the kit: each
# adapter of peers/events/adapters/ run by examples/run_vectors.py, its
# answers scored by rdpcheck score. Needs DPACC_SRC, PRV_SRC and
# OPACUS_SRC (see README.md) and Debian's python3 (numpy, scipy, absl,
# attr). Run from anywhere: bash peers/events/make_event_peers.sh [ADAPTER...]
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${DPACC_SRC:?}" "${PRV_SRC:?}" "${OPACUS_SRC:?}"
py=${PYTHON:-/usr/bin/python3}
out=peers/events/answers
mkdir -p "$out"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for a in peers/events/adapters/[a-z]*.py; do names+=("$(basename "$a" .py)"); done
fi
go build -o /tmp/rdpcheck-events-score ./cmd/rdpcheck
for n in "${names[@]}"; do
  start=$(date +%s)
  "$py" examples/run_vectors.py vectors/event_profile.json "peers/events/adapters/$n.py" -o "$out/$n.jsonl" -timeout 120 2>"$out/$n.log"
  echo "$n: $(( $(date +%s) - start )) s" >>"$out/$n.log"
  /tmp/rdpcheck-events-score score -vectors vectors/event_profile.json "$out/$n.jsonl" >"$out/$n.score.txt" || true
done
