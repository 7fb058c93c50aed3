#!/bin/bash
# Writes peers/events/FINDINGS.md: the hand-written head
# (findings_head.md) and summarize.py's tables of the committed answers.
set -euo pipefail
cd "$(dirname "$0")/../.."
{ sed '/^PLD_FOUND$/d' peers/events/findings_head.md; python3 peers/events/summarize.py; } >peers/events/FINDINGS.md
