import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createKernel,
  definePlugin,
  defineTool,
  type GuardrailsPluginOptions,
  guardrails,
  type Kernel,
  type KernelOptions,
  type Plugin,
  type SessionEvent,
} from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { afterEach } from 'vitest'
import { z } from 'zod'
import { type CodexHooksOptions, codexHooks } from '../src/index.js'

export const RECORDER = fileURLToPath(new URL('./fixtures/recorder.sh', import.meta.url))

export interface CodexHarness {
  kernel: Kernel
  model: ReturnType<typeof scriptedModel>['model']
  dir: string
  codexHome: string
  cwd: string
  out: string
  resp: string
  /** Recorded hook calls, oldest first. */
  calls(event?: string): RecordedCall[]
}

export interface RecordedCall {
  event: string
  tag: string
  stdin: string
  meta: Record<string, string>
  env: string[]
}

export interface HarnessSetup {
  script: ScriptStep[]
  /** `hooks` of hooks.json: `{ PreToolUse: [{ matcher, hooks: [{ type, command, … }] }] }`; `@REC@` is the recorder. */
  hooks?: Record<string, unknown>
  /** `<EVENT>-<TAG>[.<N>].<ext>` → content. */
  responses?: Record<string, string>
  options?: CodexHooksOptions
  /** Default: the policy the golden payloads' Codex ran under (approval_policy = "never", sandbox_mode = "danger-full-access"). */
  guardrails?: GuardrailsPluginOptions
  plugins?: Plugin[]
  kernel?: KernelOptions
}

/** A kernel with the scripted model, the tools and codexHooks over a temp CODEX_HOME; disposed after each test. */
export function codexHarnessPerTest(): (setup: HarnessSetup) => CodexHarness {
  const made: Kernel[] = []
  afterEach(async () => {
    for (const kernel of made.splice(0)) await kernel.dispose()
  })
  return (setup) => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-codex-'))
    const codexHome = join(dir, 'home')
    const cwd = join(dir, 'cwd')
    const out = join(dir, 'out')
    const resp = join(dir, 'responses')
    for (const folder of [codexHome, cwd, out, resp]) mkdirSync(folder, { recursive: true })
    if (setup.hooks) {
      writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: setup.hooks }).replaceAll('@REC@', RECORDER))
    }
    for (const [name, content] of Object.entries(setup.responses ?? {})) writeFileSync(join(resp, name), content)
    process.env.HOOK_OUT = out
    process.env.HOOK_RESP = resp
    const model = scriptedModel({ script: setup.script })
    const kernel = createKernel(
      [
        model,
        tools(),
        guardrails(setup.guardrails ?? { sandbox: 'danger-full-access', approvals: 'never' }),
        codexHooks({ codexHome, trust: 'all', trustStore: false, tmpDir: join(dir, 'tmp'), ...setup.options }),
        ...(setup.plugins ?? []),
      ],
      { cwd, modelRetry: { initialDelayMs: 1 }, ...setup.kernel },
    )
    made.push(kernel)
    return { kernel, model: model.model, dir, codexHome, cwd, out, resp, calls: (event) => readCalls(out, event) }
  }
}

function readCalls(out: string, event?: string): RecordedCall[] {
  const names = readdirSync(out)
    .filter((name) => name.endsWith('.stdin'))
    .sort()
  return names
    .map((name) => {
      const base = join(out, name.slice(0, -'.stdin'.length))
      const [, ev, tag] = name.match(/^\d+-([A-Za-z]+)-([^-]+)-\d+\.stdin$/) ?? []
      const meta = Object.fromEntries(
        readFileSync(`${base}.meta`, 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      )
      return {
        event: ev!,
        tag: tag!,
        stdin: readFileSync(`${base}.stdin`, 'utf8'),
        meta,
        env: readFileSync(`${base}.env`, 'utf8').split('\n'),
      }
    })
    .filter((call) => event === undefined || call.event === event)
}

export function rec(event: string, tag = 'h', extra: Record<string, unknown> = {}) {
  return { type: 'command', command: `@REC@ ${event} ${tag}`, ...extra }
}

export function hookRuns(path: string): (SessionEvent & { type: 'hook/run' })[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
    .filter((event): event is SessionEvent & { type: 'hook/run' } => event.type === 'hook/run')
}

/** A tool that interrupts its own turn, so the kernel fires `agent/interrupt`. */
export const interrupter = definePlugin({
  name: 'interrupter',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'interrupt_me',
        description: 'interrupts the turn',
        inputSchema: z.object({}),
        async execute(_input, { session }) {
          session.interrupt('stop right there')
          return { output: 'interrupted', isError: false }
        },
      }),
    )
  },
})
