/**
 * Claude Code's permission rules on the Codex driver: the kernel's tools, called back from the real Codex as dynamic
 * tools, are judged by the Claude Code dialect as on the native loop.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { newInput } from '@harness-kernel/testing'
import { afterEach, expect, it } from 'vitest'
import { type CodexHarness, callDirective, codexHarness } from '../../../drivers/codex/test/support/driver-harness.js'

let current: CodexHarness | undefined
const dirs: string[] = []
afterEach(async () => {
  await current?.dispose()
  current = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

it('a Claude Code deny rule refuses a kernel tool called from inside Codex, with Claude Code’s text', { timeout: 90_000 }, async () => {
  const configDir = mkdtempSync(join(tmpdir(), 'hk-claude-config-'))
  dirs.push(configDir)
  current = await codexHarness({
    plugins: [
      claudeCodeHooks({
        configDir,
        managedSettingsPath: false,
        settings: [JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } })],
      }),
    ],
  })
  mkdirSync(join(current.dir, 'src'))
  const session = await current.kernel.startSession()
  const result = await session.run(`Clean up ${callDirective('shell', { command: 'rm -rf src' })}`)
  expect(result.status, JSON.stringify(result)).toBe('completed')
  expect(existsSync(join(current.dir, 'src'))).toBe(true)
  expect(JSON.stringify(newInput(current.server.requests[1]!))).toContain('Permission to use Bash with command rm -rf src has been denied.')
  await session.end()
})
