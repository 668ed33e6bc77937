import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, type Kernel, type KernelOptions, type Plugin, type SessionEvent, useDriver } from '@harness-kernel/kernel'
import { type FakeAnthropic, type FakeModelServerOptions, startFakeAnthropic } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { type ClaudeCodeDriverOptions, claudeCodeDriver } from '../../src/index.js'
import { isolatedClaudeEnv } from './claude-env.js'

export interface DriverHarness {
  kernel: Kernel
  server: FakeAnthropic
  dir: string
  env: Record<string, string>
  dispose(): Promise<void>
}

/** A kernel on the Claude Code driver against a fake Messages API, in a temporary folder of its own. */
export async function driverHarness(
  options: {
    plugins?: Plugin[]
    driver?: ClaudeCodeDriverOptions
    server?: FakeModelServerOptions
    dir?: string
    sessionsDir?: string
    /** More kernel options (`prices`, `budgets`, …). */
    kernel?: KernelOptions
  } = {},
): Promise<DriverHarness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'hk-cc-driver-'))
  const server = await startFakeAnthropic(options.server)
  const env = isolatedClaudeEnv({ baseUrl: server.url, dir })
  const kernel = createKernel([useDriver(claudeCodeDriver({ env, ...options.driver })), tools(), ...(options.plugins ?? [])], {
    ...options.kernel,
    cwd: dir,
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
  })
  return {
    kernel,
    server,
    dir,
    env,
    async dispose() {
      await kernel.dispose()
      await server.close()
      if (!options.dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function readLog(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SessionEvent)
}

export const toolDirective = (name: string, input: Record<string, unknown>) => `[[tool:mcp__host__${name}:${JSON.stringify(input)}]]`
