#!/usr/bin/env node
// Claude Code PostToolUse hook (matcher "Write|Edit"): tells the model how long the file it wrote is.
// The kernel's write_file tool is Claude Code's Write, so this runs unchanged under both.
import { readFileSync } from 'node:fs'

const payload = JSON.parse(readFileSync(0, 'utf8'))
const file = payload.tool_input?.file_path
if (typeof file !== 'string') process.exit(0)
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).length
const additionalContext = `${file.slice(payload.cwd.length + 1)} has ${lines} non-empty lines`
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext } }))
