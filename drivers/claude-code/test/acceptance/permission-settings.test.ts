import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { lastUserMessage } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, toolDirective } from '../support/driver-harness.js'

// Observed against Claude Code 2.1.332 (Agent SDK 0.3.332).
let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

type ResultBlock = { type: string; content?: unknown; is_error?: boolean }
const toolResults = (request: Parameters<typeof lastUserMessage>[0] | undefined): ResultBlock[] => {
  const content = request ? lastUserMessage(request)?.content : undefined
  return Array.isArray(content) ? (content as ResultBlock[]).filter((block) => block.type === 'tool_result') : []
}

describe('the user’s Claude Code permission rules reach a driven Claude Code through the SDK’s `settings`', () => {
  it('Claude Code’s own engine refuses a built-in call a deny rule covers, with its own text; a kernel tool is not its to judge', async () => {
    current = await driverHarness({
      driver: {
        builtinTools: ['Bash'],
        permissionMode: 'bypassPermissions',
        queryOptions: { settings: { permissions: { allow: [], ask: [], deny: ['Bash(rm:*)'], additionalDirectories: [] } } },
      },
    })
    const victim = join(current.dir, 'victim.txt')
    const kept = join(current.dir, 'kept.txt')
    writeFileSync(victim, 'x')
    writeFileSync(kept, 'x')
    const bash = (command: string) => `[[tool:Bash:${JSON.stringify({ command, description: 'run' })}]]`
    const session = await current.kernel.startSession()
    const result = await session.run(`Remove ${bash(`echo a && rm -f ${kept}`)} ${toolDirective('shell', { command: `rm ${victim}` })}`)
    expect(result.status).toBe('completed')
    const [denied] = toolResults(current.server.requests[1])
    expect(denied).toMatchObject({ is_error: true })
    expect(JSON.stringify(denied?.content)).toContain(`Permission to use Bash with command echo a && rm -f ${kept} has been denied.`)
    expect(existsSync(kept)).toBe(true)
    // The kernel's own shell tool is judged in the kernel (by the Claude Code dialect when it is composed; here nothing forbids it).
    expect(existsSync(victim)).toBe(false)
  })
})
