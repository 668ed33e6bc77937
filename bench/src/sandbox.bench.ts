import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { codexExecutable } from '@harness-kernel/driver-codex'
import {
  bwrapSandbox,
  DEFAULT_GUARDRAILS_POLICY,
  ExecProcessRunner,
  type ProcessRunOptions,
  startFilteringProxy,
} from '@harness-kernel/kernel'
import { compare, fmt } from './measure.js'
import type { Section } from './report.js'

/**
 * (r) A trivial command (`/bin/bash -c true`) through the kernel's process runner: as it is, in the kernel's sandbox
 * (workspace-write, network off), confined as Claude Code's `sandbox.enabled` confines Bash (its network through the
 * proxy relay), and under `codex sandbox` (Codex's own, workspace-write), interleaved in rotating order. Each sample is
 * one whole run, to the process's exit.
 */
export async function sandboxBench(options: { samples: number; warmup: number }): Promise<Section> {
  // Outside /tmp: Codex refuses to make its helper links under a temporary directory and says so on every run.
  const workspace = mkdtempSync(join('/var/tmp', 'hk-bench-sandbox-'))
  const codexHome = mkdtempSync(join('/var/tmp', 'hk-bench-codex-home-'))
  const runner = new ExecProcessRunner()
  const sandbox = bwrapSandbox()
  const unavailable = sandbox.unavailable()
  if (unavailable !== undefined) throw new Error(`sandbox bench: ${unavailable}`)
  const sandboxed = sandbox.runner({ policy: DEFAULT_GUARDRAILS_POLICY.sandbox, cwd: workspace, inner: runner })
  const base: ProcessRunOptions = { command: 'true', shell: '/bin/bash', cwd: workspace }
  const proxy = await startFilteringProxy({ allows: () => false })
  const confined = sandbox.runner({
    policy: { type: 'dangerFullAccess' },
    cwd: workspace,
    inner: runner,
    confinement: { writableRoots: [workspace], denyWrite: [], denyRead: [], proxy: { socketPath: proxy.socketPath } },
  })
  const codex = codexExecutable()
  const check = async (name: string, run: () => Promise<{ exitCode: number | null; stderr: string }>) => {
    const result = await run()
    if (result.exitCode !== 0) throw new Error(`sandbox bench: ${name} exited ${result.exitCode}: ${result.stderr}`)
  }
  const variants = {
    unsandboxed: () => check('unsandboxed', () => runner.run(base)),
    kernel: () => check('kernel sandbox', () => sandboxed.run(base)),
    claude: () => check('Claude Code sandbox settings', () => confined.run(base)),
    codex: () =>
      check('codex sandbox', () =>
        runner.run({
          command: codex,
          args: ['sandbox', '-c', 'sandbox_mode="workspace-write"', '--', '/bin/bash', '-c', 'true'],
          cwd: workspace,
          env: { HOME: codexHome, CODEX_HOME: codexHome },
        }),
      ),
  }
  const stats = await compare(variants, { warmup: options.warmup, samples: options.samples, ops: 1 }).finally(async () => {
    await proxy.close()
    for (const dir of [workspace, codexHome]) rmSync(dir, { recursive: true, force: true })
  })
  const ms = (name: keyof typeof variants) => stats[name]!.median / 1e6
  return {
    title: "(r) A trivial command: unsandboxed, in the kernel's sandbox, confined as Claude Code's sandbox, under `codex sandbox`",
    head: ['variant', 'median ms', 'min ms', 'max ms', '× unsandboxed'],
    rows: (Object.keys(variants) as (keyof typeof variants)[]).map((name) => [
      name === 'kernel'
        ? "kernel's sandbox (bwrap, workspace-write)"
        : name === 'claude'
          ? "Claude Code's sandbox settings (bwrap, the network through the proxy relay)"
          : name === 'codex'
            ? '`codex sandbox` (workspace-write)'
            : 'unsandboxed',
      fmt(ms(name), 2),
      fmt(stats[name]!.min / 1e6, 2),
      fmt(stats[name]!.max / 1e6, 2),
      fmt(ms(name) / ms('unsandboxed'), 2),
    ]),
    notes: [
      `Kernel sandbox / unsandboxed: ${fmt(ms('kernel') / ms('unsandboxed'), 2)}× (goal ≤ 1.5×); kernel sandbox / \`codex sandbox\`: ${fmt(ms('kernel') / ms('codex'), 2)}× (goal ≤ 1.0×). ${options.samples} samples each, interleaved.`,
      `Claude Code's sandbox settings / kernel sandbox: ${fmt(ms('claude') / ms('kernel'), 2)}× (the relay is a Node process started inside the sandbox before the command).`,
    ],
    data: { stats },
  }
}
