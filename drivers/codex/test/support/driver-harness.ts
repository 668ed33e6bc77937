import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, type Kernel, type Plugin, type SessionEvent, useDriver } from '@harness-kernel/kernel'
import { type FakeOpenAI, startFakeOpenAI } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { type CodexDriverOptions, codexDriver } from '../../src/index.js'

export interface CodexHarness {
  kernel: Kernel
  server: FakeOpenAI
  dir: string
  options: CodexDriverOptions
  dispose(): Promise<void>
}

/**
 * The driver's options for a fake Responses server: its provider, no retries, and an isolated HOME (with the
 * isolated CODEX_HOME the driver makes), so nothing of this machine's shell or Codex config takes part.
 */
export function codexOptions(server: { baseURL: string }, dir: string, extra: CodexDriverOptions = {}): CodexDriverOptions {
  const home = join(dir, 'home')
  mkdirSync(home, { recursive: true })
  return {
    model: 'gpt-5.1-codex',
    provider: { baseUrl: server.baseURL, envKey: 'FAKE_RESPONSES_KEY', requestMaxRetries: 0, streamMaxRetries: 0 },
    ...extra,
    env: { HOME: home, FAKE_RESPONSES_KEY: 'fake-key', TMPDIR: tmpdir(), ...extra.env },
  }
}

/** A kernel on the Codex driver against a fake Responses API, in a temporary folder of its own. */
export async function codexHarness(options: { plugins?: Plugin[]; driver?: CodexDriverOptions; dir?: string } = {}): Promise<CodexHarness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'hk-codex-driver-'))
  const server = await startFakeOpenAI()
  const driverOptions = codexOptions(server, dir, options.driver)
  const kernel = createKernel([useDriver(codexDriver(driverOptions)), tools(), ...(options.plugins ?? [])], { cwd: dir })
  return {
    kernel,
    server,
    dir,
    options: driverOptions,
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

export const callDirective = (name: string, args: Record<string, unknown>) => `[[call:${name}:${JSON.stringify(args)}]]`
