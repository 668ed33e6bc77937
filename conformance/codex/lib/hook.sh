#!/bin/bash
# Hook handler used by every conformance scenario, on both sides (real Codex and our kernel).
# Usage, as a hooks.json command:  @HOOK@ <Event> [TAG]
#
# 1. Records the exact stdin bytes to $HOOK_OUT/<ns>-<Event>-<TAG>-<pid>.stdin and a small
#    .meta file (invocation number, cwd, start/end time, exit code).
# 2. Replies from the first file that exists in $HOOK_RESP, N being this call's 1-based
#    invocation count for <Event>/<TAG>:
#      <Event>-<TAG>.<N>.<ext>, <Event>.<N>.<ext>, <Event>-<TAG>.<ext>, <Event>.<ext>
#    ext: sleep (seconds to wait first), stderr / stdout (copied verbatim), sh (a bash script
#    run with the recorded stdin as its stdin; its output and exit code become the hook's),
#    exit (the exit code; wins over the script's).
# The reply protocol is the one of shared/real-clients/codex/hook-recorder.sh, plus `sh`.
EVENT="${1:?usage: hook.sh EVENT [TAG]}"
TAG="${2:-h}"
OUT="${HOOK_OUT:?HOOK_OUT is not set}"
RESP="${HOOK_RESP:-$OUT/../responses}"
mkdir -p "$OUT"
T0=$(date +%s.%N)
BASE="$OUT/$(date +%s%N)-$EVENT-$TAG-$$"
cat > "$BASE.stdin"
N=$(ls "$OUT" | grep -c -- "-$EVENT-$TAG-[0-9]*\.stdin$")
printf 'event=%s\ntag=%s\ninvocation=%s\npid=%s\nppid=%s\ncwd=%s\nt_start=%s\n' "$EVENT" "$TAG" "$N" "$$" "$PPID" "$(pwd)" "$T0" > "$BASE.meta"
pick() {
  local n
  for n in "$EVENT-$TAG.$N" "$EVENT.$N" "$EVENT-$TAG" "$EVENT"; do
    if [ -e "$RESP/$n.$1" ]; then
      echo "$RESP/$n.$1"
      return 0
    fi
  done
  return 1
}
CODE=0
if f=$(pick sleep); then sleep "$(cat "$f")"; fi
if f=$(pick stderr); then cat "$f" >&2; fi
if f=$(pick stdout); then cat "$f"; fi
if f=$(pick sh); then
  bash "$f" "$EVENT" "$TAG" "$N" < "$BASE.stdin"
  CODE=$?
fi
if f=$(pick exit); then CODE=$(cat "$f"); fi
printf 't_end=%s\nexit=%s\n' "$(date +%s.%N)" "$CODE" >> "$BASE.meta"
exit "$CODE"
