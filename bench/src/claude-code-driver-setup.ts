import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Query, SDKUserMessage, query as SdkQuery } from '@anthropic-ai/claude-agent-sdk'
import { createKernel, type Kernel, type Plugin, useDriver } from '@harness-kernel/kernel'
import { tools } from '@harness-kernel/tools'
import type { Section } from './report.js'

/**
 * What the Claude Code driver benchmarks share (`claude-code-steer`, `claude-code-driver-steps`): finding the native
 * binary the Agent SDK installed, Claude Code's isolated environment, the kernel on the driver, and a tap on the SDK's
 * `query` that timestamps what the driver submits and what Claude Code answers, without touching the driver.
 *
 * The driver and the Agent SDK are imported when one of these benchmarks runs, never at start-up: loaded, they hold
 * ~12 MB more heap and ~30 MB more RSS, which the other benchmarks (the loop's memory figures, fork costs) would carry.
 */

/** The native Claude Code of the driver package (installed by `npm ci`), or why it is not there. */
export async function locateClaude(): Promise<{ ok: true; bin: string } | { ok: false; reason: string }> {
  try {
    const { claudeExecutable } = await import('@harness-kernel/driver-claude-code')
    return { ok: true, bin: claudeExecutable() }
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
}

/**
 * The section `skipped: <reason>` when Claude Code is not installed, else `measure` in a fresh temp dir (removed after),
 * with the binary's path.
 */
export async function withClaude(
  title: string,
  prefix: string,
  measure: (bin: string, root: string) => Promise<Section>,
): Promise<Section> {
  const located = await locateClaude()
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

/**
 * Claude Code's environment over ours: the fake endpoint, a dummy key, no traffic beyond it, HOME in `home`. The driver
 * sets CLAUDE_CONFIG_DIR itself (a folder of the session's own); `claude -p` runs get theirs from the caller.
 */
export function claudeEnv(baseUrl: string, home: string): Record<string, string | undefined> {
  mkdirSync(home, { recursive: true })
  return {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-bench-not-a-real-key',
    ANTHROPIC_AUTH_TOKEN: undefined,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    HOME: home,
  }
}

/** What went through the SDK's `query`: each message the driver submitted and each message Claude Code emitted, timed. */
export interface QueryTap {
  /** A message the SDK took from the driver's input (it writes it to Claude Code's stdin next), `performance.now()` ms. */
  onSubmit?(message: SDKUserMessage, at: number): void
  /** A message from Claude Code as the driver is about to see it (`command_lifecycle` frames included). */
  onMessage?(message: { type: string; [key: string]: unknown }, at: number): void
}

/**
 * The Agent SDK's `query`, with its input and its output observed (the driver's `query` option). Everything else goes to
 * the real `Query` (interrupt, cancelAsyncMessage, close, …).
 */
export async function tappedQuery(tap: QueryTap): Promise<typeof SdkQuery> {
  const { query: sdkQuery } = await import('@anthropic-ai/claude-agent-sdk')
  return ((params: Parameters<typeof SdkQuery>[0]) => {
    const input = params.prompt
    const prompt =
      typeof input === 'string'
        ? input
        : (async function* () {
            for await (const message of input) {
              tap.onSubmit?.(message, performance.now())
              yield message
            }
          })()
    const query = sdkQuery({ ...params, prompt })
    const messages = (async function* () {
      for await (const message of query) {
        tap.onMessage?.(message as { type: string }, performance.now())
        yield message
      }
    })()
    return new Proxy(query, {
      get(target, property) {
        if (property === Symbol.asyncIterator) return () => messages
        if (property === 'next') return () => messages.next()
        const value = Reflect.get(target, property, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    }) as Query
  }) as typeof SdkQuery
}

/** A kernel on the Claude Code driver with the kernel's tools, in `dir`. */
export async function driverKernel(options: { dir: string; baseUrl: string; plugins: Plugin[]; tap?: QueryTap }): Promise<Kernel> {
  const { claudeCodeDriver } = await import('@harness-kernel/driver-claude-code')
  const workspace = join(options.dir, 'workspace')
  mkdirSync(workspace, { recursive: true })
  const env = claudeEnv(options.baseUrl, join(options.dir, 'home'))
  const driver = claudeCodeDriver({ env, ...(options.tap ? { query: await tappedQuery(options.tap) } : {}) })
  return createKernel([useDriver(driver), tools(), ...options.plugins], { cwd: workspace })
}
