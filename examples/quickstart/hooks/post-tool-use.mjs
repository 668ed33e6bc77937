#!/usr/bin/env node
// Codex PostToolUse hook: after a shell command that touched build/, tells the model what build/ holds now.
import { readdirSync, readFileSync } from 'node:fs'

const payload = JSON.parse(readFileSync(0, 'utf8'))
if (!String(payload.tool_input?.command ?? '').includes('build')) process.exit(0)
let entries = []
try {
  entries = readdirSync('build')
} catch {}
const additionalContext = `build/ now holds: ${entries.join(', ') || 'nothing'}`
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext } }))
