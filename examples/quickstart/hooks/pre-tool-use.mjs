#!/usr/bin/env node
// Codex PreToolUse hook: refuses to pipe a download into a shell. Exit 2 blocks; stderr is the reason.
import { readFileSync } from 'node:fs'

const payload = JSON.parse(readFileSync(0, 'utf8'))
const command = String(payload.tool_input?.command ?? '')
if (/\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/.test(command)) {
  process.stderr.write('piping a download into a shell is not allowed in this project')
  process.exit(2)
}
