#!/usr/bin/env node
// Codex Stop hook: the first time the model wants to finish, ask it to verify its work; then let it stop.
import { readFileSync } from 'node:fs'

const payload = JSON.parse(readFileSync(0, 'utf8'))
if (!payload.stop_hook_active) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'Before finishing, check that build/README.md exists.' }))
}
