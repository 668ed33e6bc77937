import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, defineTool, type Kernel, type Plugin, useDriver } from '@harness-kernel/kernel'
import { tools } from '@harness-kernel/tools'
import { z } from 'zod'
import type { Section } from './report.js'

/**
 * What the Codex driver benchmarks share (`codex-driver-steps`, `codex-steer`): finding the native Codex the driver's
 * `@openai/codex` installed, the kernel on the driver against a fake Responses API, and the `config.toml` a `codex exec`
 * run gets so that it talks to the same provider the way the driver's app server does.
 *
 * The driver is imported when one of these benchmarks runs, never at start-up (as the Claude Code driver benchmarks do).
 */

/** The model both clients ask the fake provider for (Codex has no metadata for it and says so once per thread). */
export const MODEL = 'gpt-5.1-codex'
/** The variable the fake provider's key is read from. */
export const KEY_VAR = 'FAKE_RESPONSES_KEY'

/** The native Codex of the driver package (`codexExecutable()`), or why it is not there. */
export async function locateCodex(): Promise<{ ok: true; bin: string } | { ok: false; reason: string }> {
  try {
    const { codexExecutable } = await import('@harness-kernel/driver-codex')
    return { ok: true, bin: codexExecutable() }
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
}

/** The section `skipped: <reason>` when Codex is not installed, else `measure` in a fresh temp dir (removed after). */
export async function withCodex(title: string, prefix: string, measure: (bin: string, root: string) => Promise<Section>): Promise<Section> {
  const located = await locateCodex()
  if (!located.ok) {
    const skipped = `skipped: ${located.reason}`
    process.stderr.write(`${skipped}\n`)
    return { title, head: [], rows: [], notes: [skipped], data: { skipped: located.reason } }
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  try {
    return await measure(located.bin, root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/** The fake provider as the driver is given it: no retries, the key in `KEY_VAR`. */
export const providerOf = (baseUrl: string) => ({ baseUrl, envKey: KEY_VAR, requestMaxRetries: 0, streamMaxRetries: 0 })

/**
 * The `config.toml` the driver writes into its isolated CODEX_HOME for these options (drivers/codex/src/codex-home.ts),
 * line for line; `codex exec` runs get the same file. `sameAsDriver` checks it against the driver's own.
 */
export function codexConfigToml(baseUrl: string): string {
  const provider = providerOf(baseUrl)
  return [
    '# Written by @harness-kernel/driver-codex for each session it runs.',
    `model = ${JSON.stringify(MODEL)}`,
    'model_provider = "harness-kernel"',
    '',
    '[model_providers.harness-kernel]',
    'name = "harness-kernel"',
    `base_url = ${JSON.stringify(provider.baseUrl.replace(/\/+$/, ''))}`,
    `env_key = ${JSON.stringify(provider.envKey)}`,
    'wire_api = "responses"',
    `request_max_retries = ${provider.requestMaxRetries}`,
    `stream_max_retries = ${provider.streamMaxRetries}`,
    '',
  ].join('\n')
}

/** Throws unless the driver's `config.toml` for a session (in its state dir) is the one `codex exec` runs get. */
export function sameAsDriver(workspace: string, sessionId: string, baseUrl: string): void {
  const file = join(workspace, '.harness', 'sessions', 'drivers', 'codex', sessionId, 'codex-home', 'config.toml')
  const driver = readFileSync(file, 'utf8')
  if (driver !== codexConfigToml(baseUrl))
    throw new Error(`codex bench: the driver's config.toml (${file}) differs from the one codex exec gets:\n${driver}`)
}

/** A kernel tool that runs nothing: the driver's tool step without a process, its own plumbing alone. */
export const noopTool: Plugin = definePlugin({
  name: 'bench-noop-tool',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'noop',
        description: 'Does nothing.',
        inputSchema: z.object({ command: z.string() }),
        async execute() {
          return { output: 'ok', isError: false }
        },
      }),
    )
  },
})

/**
 * A kernel on the Codex driver with the kernel's tools, in `dir` (`workspace/` is the kernel's cwd and so holds its
 * sessions and the driver's CODEX_HOME; `home/` is Codex's HOME). Codex's environment: ours with HOME and the key over it.
 */
export async function codexDriverKernel(options: {
  dir: string
  baseUrl: string
  plugins: Plugin[]
}): Promise<{ kernel: Kernel; workspace: string }> {
  const { codexDriver } = await import('@harness-kernel/driver-codex')
  const workspace = join(options.dir, 'workspace')
  const home = join(options.dir, 'home')
  mkdirSync(workspace, { recursive: true })
  mkdirSync(home, { recursive: true })
  const driver = codexDriver({ model: MODEL, provider: providerOf(options.baseUrl), env: { HOME: home, [KEY_VAR]: 'fake-key' } })
  return { kernel: createKernel([useDriver(driver), tools(), ...options.plugins], { cwd: workspace }), workspace }
}

/** A `codex exec` set-up: HOME, CODEX_HOME (with `codexConfigToml`) and a workspace under `dir`, and the environment. */
export function codexExecHome(dir: string, baseUrl: string): { workspace: string; env: Record<string, string> } {
  const home = join(dir, 'home')
  const codexHome = join(dir, 'codex-home')
  const workspace = join(dir, 'workspace')
  for (const folder of [home, codexHome, workspace]) mkdirSync(folder, { recursive: true })
  writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(baseUrl))
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, HOME: home, CODEX_HOME: codexHome, [KEY_VAR]: 'fake-key' })) {
    if (value !== undefined) env[key] = value
  }
  return { workspace, env }
}
