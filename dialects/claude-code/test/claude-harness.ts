import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createKernel,
  type GuardrailsPluginOptions,
  guardrails,
  type Kernel,
  type KernelOptions,
  type ModelRequest,
  type Plugin,
  type SessionEvent,
} from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { afterEach } from 'vitest'
import { type ClaudeCodeHooksOptions, claudeCodeHooks } from '../src/index.js'

export const RECORDER = fileURLToPath(new URL('./fixtures/recorder.sh', import.meta.url))

export interface ClaudeHarness {
  kernel: Kernel
  dir: string
  /** The project (session cwd); its `.claude/settings.json` holds the hooks. */
  project: string
  configDir: string
  out: string
  resp: string
  /** Recorded hook calls, oldest first. */
  calls(event?: string): RecordedCall[]
  /** The model requests, as the model received them (rendered). */
  requests(): ModelRequest[]
}

export interface RecordedCall {
  event: string
  tag: string
  n: number
  stdin: string
  payload: Record<string, unknown>
  meta: Record<string, string>
  env: Record<string, string>
}

export interface HarnessSetup {
  script: ScriptStep[]
  /** Project `.claude/settings.json` `hooks`; `@REC@` is the recorder's path. */
  hooks?: Record<string, unknown>
  /** Other project settings keys (`disableAllHooks`, …). */
  settings?: Record<string, unknown>
  /** `<EVENT>-<TAG>[.<N>].<ext>` → content. */
  responses?: Record<string, string>
  options?: ClaudeCodeHooksOptions
  plugins?: Plugin[]
  kernel?: KernelOptions
  /** The kernel's guardrails. Default: full access, never ask (the hooks are under test, not the sandbox). */
  guardrails?: GuardrailsPluginOptions
}

/** A kernel with the scripted model, the tools and claudeCodeHooks over a temp project; disposed after each test. */
export function claudeHarnessPerTest(): (setup: HarnessSetup) => ClaudeHarness {
  const made: Kernel[] = []
  afterEach(async () => {
    for (const kernel of made.splice(0)) await kernel.dispose()
  })
  return (setup) => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-claude-'))
    const project = join(dir, 'proj')
    const configDir = join(dir, 'config')
    const out = join(dir, 'out')
    const resp = join(dir, 'responses')
    for (const folder of [join(project, '.claude'), configDir, out, resp]) mkdirSync(folder, { recursive: true })
    // The project is trusted, as after Claude Code's trust dialog: its settings.json may allow.
    writeFileSync(join(configDir, '.claude.json'), JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }))
    if (setup.hooks || setup.settings) {
      const settings = { ...setup.settings, ...(setup.hooks ? { hooks: setup.hooks } : {}) }
      writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(settings).replaceAll('@REC@', RECORDER))
    }
    for (const [name, content] of Object.entries(setup.responses ?? {})) writeFileSync(join(resp, name), content)
    process.env.HOOK_OUT = out
    process.env.HOOK_RESP = resp
    const requestLog = join(dir, 'requests.jsonl')
    const model = scriptedModel({ script: setup.script, recordTo: requestLog })
    const kernel = createKernel(
      [
        model,
        tools(),
        guardrails(setup.guardrails ?? { sandbox: 'danger-full-access', approvals: 'never' }),
        claudeCodeHooks({ configDir, managedSettingsPath: false, envFileDir: join(dir, 'env'), ...setup.options }),
        ...(setup.plugins ?? []),
      ],
      { cwd: project, sessionsDir: join(dir, 'sessions'), modelRetry: { initialDelayMs: 1 }, ...setup.kernel },
    )
    made.push(kernel)
    return {
      kernel,
      dir,
      project,
      configDir,
      out,
      resp,
      calls: (event) => readCalls(out, event),
      requests: () => readRequests(requestLog),
    }
  }
}

function readRequests(path: string): ModelRequest[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return []
  }
  return text
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { request: ModelRequest }).request)
}

function keyValues(text: string): Record<string, string> {
  const entries: [string, string][] = []
  for (const line of text.split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) entries.push([line.slice(0, at), line.slice(at + 1)])
  }
  return Object.fromEntries(entries)
}

function readCalls(out: string, event?: string): RecordedCall[] {
  return readdirSync(out)
    .filter((name) => name.endsWith('.stdin'))
    .sort()
    .map((name) => {
      const base = join(out, name.slice(0, -'.stdin'.length))
      const [, ev, tag, n] = name.match(/^\d+-([A-Za-z]+)-([^-]+)-(\d+)\.stdin$/) ?? []
      const stdin = readFileSync(`${base}.stdin`, 'utf8')
      return {
        event: ev!,
        tag: tag!,
        n: Number(n),
        stdin,
        payload: JSON.parse(stdin) as Record<string, unknown>,
        meta: keyValues(readFileSync(`${base}.meta`, 'utf8')),
        env: keyValues(readFileSync(`${base}.env`, 'utf8')),
      }
    })
    .filter((call) => event === undefined || call.event === event)
}

export function rec(event: string, tag = 'h', extra: Record<string, unknown> = {}) {
  return { type: 'command', command: `@REC@ ${event} ${tag}`, ...extra }
}

/** `{ Event: [{ hooks: [rec(Event)] }] }` for each event. */
export function recordEvents(events: readonly string[], tag = 'h'): Record<string, unknown> {
  return Object.fromEntries(events.map((event) => [event, [{ hooks: [rec(event, tag)] }]]))
}

export function hookRuns(path: string): (SessionEvent & { type: 'hook/run' })[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
    .filter((event): event is SessionEvent & { type: 'hook/run' } => event.type === 'hook/run')
}

export const bash = (command: string, id = 'toolu_1') => ({
  tool_calls: [{ id, name: 'shell', input: { command, description: `run ${command}` } }],
})
