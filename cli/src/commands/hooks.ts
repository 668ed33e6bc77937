import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  type ExecClaudeCodeEventResult,
  execClaudeCodeEvent,
  isClaudeEvent,
  isProducedEvent,
  type ProducedEvent,
  UNPRODUCED_EVENTS,
} from '@harness-kernel/claude-code'
import {
  CODEX_EVENTS,
  type CodexEvent,
  type CodexHandler,
  execCodexEvent,
  isCodexEvent,
  type LoadedCodexHooks,
  projectTrustCommand,
  trustCodexHooks,
  trustCodexProject,
} from '@harness-kernel/codex'
import { compileMatcher } from '@harness-kernel/hook-protocol'
import { createKernel, ExecProcessRunner, errorMessage, type Kernel, type ServiceKey } from '@harness-kernel/kernel'
import { MCP_CLIENTS_SERVICE, type McpClients, mcp } from '@harness-kernel/mcp'
import { type ClaudeCodeFlags, claudeCodeSetup, loadClaudeHooks } from '../claude-code/claude-code-setup.js'
import { CliError } from '../cli-error.js'
import { BYPASS_HOOK_TRUST_WARNING, codexSetup, loadHooks } from '../codex/codex-setup.js'
import { EXIT } from '../exit-codes.js'
import { type CliIo, writeJson } from '../io.js'
import { defaultMcpPlugin } from '../mcp-setup.js'
import { createModelPlugin } from '../model-spec.js'
import { readAll } from '../read-prompt.js'
import { claudeHookExecJson, renderClaudeHookExec } from '../render/claude-hook-exec.js'
import { claudeHookListJson, renderClaudeHookList } from '../render/claude-hook-list.js'
import { hookExecJson, renderHookExec, type SkippedHandler } from '../render/hook-exec.js'
import { hookListJson, renderHookList } from '../render/hook-list.js'
import { signalExitCode, watchSignals } from '../signals.js'
import { colorEnabled, createStyle } from '../style.js'
import { indent } from '../text.js'
import { CLAUDE_EXEC_EVENTS, DIALECTS, type Dialect } from './hook-dialects.js'

export interface HooksOptions extends ClaudeCodeFlags {
  codexHome?: string
  cwd?: string
}

export interface HooksListOptions extends HooksOptions {
  json?: boolean
  /** `codex` or `claude-code`; default both. */
  dialect?: string
}

export interface HooksTrustOptions extends HooksOptions {
  all?: boolean
  codex?: boolean
  /** Trust the project of the working directory, as Codex does (`[projects."<path>"] trust_level` in config.toml). */
  project?: boolean
}

export interface HooksExecOptions extends HooksOptions {
  payload: string
  json?: boolean
  dangerouslyBypassHookTrust?: boolean
  /** Claude Code: the model prompt handlers ask. */
  model?: string
}

export async function listHooks(options: HooksListOptions, io: CliIo): Promise<number> {
  const dialects = listedDialects(options.dialect)
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  const style = createStyle(colorEnabled(io.stdout, io.env))
  const objects: unknown[] = []
  const texts: string[] = []
  if (dialects.includes('codex')) {
    const setup = codexSetup(cwd, options.codexHome, io.env)
    const loaded = loadHooks(setup, io.env)
    if (options.json) objects.push(hookListJson(loaded, { codexHome: setup.codexHome, trustStorePath: setup.trustStore.path }))
    else {
      // The command as the user would type it next: with the --cwd and --codex-home given here, made absolute.
      const command = projectTrustCommand({
        cwd: options.cwd === undefined ? undefined : cwd,
        codexHome: options.codexHome === undefined ? undefined : setup.codexHome,
      })
      texts.push(renderHookList(loaded, { codexHome: setup.codexHome, cwd, projectTrustCommand: command }, style))
    }
  }
  if (dialects.includes('claude-code')) {
    const setup = claudeCodeSetup(cwd, options, io.env)
    const loaded = loadClaudeHooks(setup, io.env)
    if (options.json) objects.push(claudeHookListJson(loaded, setup))
    else texts.push(renderClaudeHookList(loaded, setup, style))
  }
  if (options.json) writeJson(io.stdout, objects.length === 1 ? objects[0] : { dialects: objects })
  else io.stdout.write(`${texts.join('\n\n')}\n`)
  return EXIT.ok
}

function listedDialects(dialect: string | undefined): readonly Dialect[] {
  if (dialect === undefined) return DIALECTS
  if (!(DIALECTS as readonly string[]).includes(dialect)) {
    throw new CliError(`unknown hook dialect "${dialect}"; available: ${DIALECTS.join(', ')}`)
  }
  return [dialect as Dialect]
}

export async function trustHooks(keys: readonly string[], options: HooksTrustOptions, io: CliIo): Promise<number> {
  if (options.all && keys.length > 0) throw new CliError('pass the keys of the hooks to trust, or --all, not both')
  if (options.project && keys.length > 0) {
    throw new CliError(
      'trust the project first (harness hooks trust --project), then its hooks by key (harness hooks list shows the keys), or both at once with --project --all',
    )
  }
  if (!options.all && !options.project && keys.length === 0) {
    throw new CliError(
      'name the hooks to trust: harness hooks trust KEY… (harness hooks list shows the keys), or pass --all (or --project for the project of the working directory)',
    )
  }
  if (options.project) {
    trustProject(options, io)
    if (!options.all) return EXIT.ok
  }
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  const setup = codexSetup(cwd, options.codexHome, io.env)
  const loaded = loadHooks(setup, io.env)
  const byKey = new Map(loaded.handlers.map((handler) => [handler.key, handler]))
  const unknown = keys.filter((key) => !byKey.has(key.trim()))
  if (unknown.length > 0) {
    const list = unknown.map((key) => JSON.stringify(key)).join(', ')
    throw new CliError(`no Codex hook with ${unknown.length === 1 ? 'key' : 'keys'} ${list} (harness hooks list shows the keys)`)
  }
  const selected = options.all ? loaded.handlers : [...new Set(keys.map((key) => byKey.get(key.trim())!))]
  const managed = selected.filter((handler) => handler.trustStatus === 'managed')
  const toTrust = selected.filter((handler) => handler.trustStatus !== 'managed')

  const result = trustCodexHooks({
    handlers: loaded.handlers,
    keys: options.all ? 'all' : toTrust.map((handler) => handler.key),
    target: options.codex ? 'codex' : 'harness',
    trustStore: setup.trustStore,
    codexHome: setup.codexHome,
  })
  const where = options.codex
    ? `Codex's config ${result.configPath ?? `${setup.codexHome}/config.toml`} (Codex trusts them too)`
    : `the harness trust store ${setup.trustStore.path}`

  const lines: string[] = []
  if (toTrust.length === 0) lines.push(managed.length === 0 ? 'no Codex hooks to trust' : 'nothing to write')
  else lines.push(`trusted ${toTrust.length === 1 ? '1 Codex hook' : `${toTrust.length} Codex hooks`} in ${where}:`)
  for (const handler of toTrust) {
    lines.push(
      indent(`${handler.key} (${handler.event}, was ${handler.trustStatus})`),
      indent(`command  ${indent(handler.command, '           ').trimStart()}`, '    '),
      indent(`hash     ${handler.currentHash}`, '    '),
    )
  }
  for (const handler of managed) lines.push(`${handler.key}: managed, needs no trust`)
  io.stdout.write(`${lines.join('\n')}\n`)

  // A hash in the harness store is read after Codex's config.toml, so a stale one there still wins for the harness.
  const after = new Map(loadHooks(setup, io.env).handlers.map((handler) => [handler.key, handler]))
  for (const handler of toTrust) {
    const status = after.get(handler.key)?.trustStatus
    if (status === 'trusted') continue
    io.stderr.write(
      `harness: warning: ${handler.key} is still ${status ?? 'missing'} for the harness: its trust store ${setup.trustStore.path} holds another hash; run harness hooks trust without --codex to update it\n`,
    )
  }
  return EXIT.ok
}

/** `--project`: the project of the working directory, trusted in Codex's config.toml; then the hooks it now loads. */
function trustProject(options: HooksTrustOptions, io: CliIo): void {
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  const setup = codexSetup(cwd, options.codexHome, io.env)
  let result: ReturnType<typeof trustCodexProject>
  try {
    result = trustCodexProject({ cwd, codexHome: setup.codexHome, env: io.env })
  } catch (error) {
    throw new CliError(`cannot trust the project: ${errorMessage(error)}`, { exitCode: EXIT.failed, cause: error })
  }
  const lines =
    result.trusted.length === 0
      ? [`the project ${result.project} is trusted already in Codex's config ${result.configPath}`]
      : [
          `trusted the project ${result.project} in Codex's config ${result.configPath} (Codex trusts it too):`,
          ...result.trusted.map((key) => indent(`[projects.${JSON.stringify(key)}] trust_level = "trusted"`)),
        ]
  if (!options.all) {
    const loaded = loadHooks(setup, io.env)
    const project = loaded.handlers.filter((handler) => handler.source === 'project')
    const untrusted = project.filter((handler) => handler.trustStatus === 'untrusted' || handler.trustStatus === 'modified')
    if (project.length === 0) lines.push('its .codex/ folders hold no hooks')
    else {
      lines.push(`its .codex/ folders hold ${project.length === 1 ? '1 hook' : `${project.length} hooks`}:`)
      for (const handler of project) lines.push(indent(`${handler.key} (${handler.event}, ${handler.trustStatus}): ${handler.command}`))
    }
    if (untrusted.length > 0) {
      lines.push('each hook needs its own trust: review the commands, then harness hooks trust KEY… (or --all)')
    }
  }
  io.stdout.write(`${lines.join('\n')}\n`)
}

export async function execHooks(dialect: string, eventName: string, options: HooksExecOptions, io: CliIo): Promise<number> {
  if (!(DIALECTS as readonly string[]).includes(dialect)) {
    throw new CliError(`unknown hook dialect "${dialect}"; available: ${DIALECTS.join(', ')}`)
  }
  if (dialect === 'claude-code') return execClaudeHooks(eventName, options, io)
  if (options.model !== undefined) throw new CliError('--model is for Claude Code prompt hooks; Codex hooks ask no model')
  if (!isCodexEvent(eventName)) throw new CliError(`unknown Codex event "${eventName}"; valid events: ${CODEX_EVENTS.join(', ')}`)
  const event: CodexEvent = eventName
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  const { text: payload, parsed } = await readPayload(options.payload, cwd, io)
  const setup = codexSetup(cwd, options.codexHome, io.env)
  const loaded = loadHooks(setup, io.env)
  const bypassTrust = options.dangerouslyBypassHookTrust === true
  if (bypassTrust) io.stderr.write(`harness: warning: ${BYPASS_HOOK_TRUST_WARNING}\n`)
  if (!options.json) for (const warning of loaded.warnings) io.stderr.write(`harness: warning: ${indent(warning).trimStart()}\n`)

  const controller = new AbortController()
  const signals = watchSignals(() => controller.abort(), io.stderr)
  let result: Awaited<ReturnType<typeof execCodexEvent>>
  try {
    result = await execCodexEvent({
      loaded,
      event,
      payload,
      processRunner: new ExecProcessRunner(),
      // Codex runs hooks in the turn's cwd, which the payload carries.
      cwd: typeof parsed.cwd === 'string' ? resolve(cwd, parsed.cwd) : cwd,
      bypassTrust,
      signal: controller.signal,
    })
  } finally {
    signals.stop()
  }
  if (signals.received) return signalExitCode(signals.received)

  const skipped = skippedHandlers(loaded, event, result.subject, bypassTrust, new Set(result.runs.map((run) => run.handler)))
  if (options.json) writeJson(io.stdout, hookExecJson(event, result, skipped, { bypassTrust, warnings: loaded.warnings }))
  else io.stdout.write(`${renderHookExec(event, result, skipped, parsed, createStyle(colorEnabled(io.stdout, io.env)))}\n`)
  return EXIT.ok
}

async function execClaudeHooks(eventName: string, options: HooksExecOptions, io: CliIo): Promise<number> {
  if (options.dangerouslyBypassHookTrust) {
    throw new CliError('--dangerously-bypass-hook-trust is for Codex hooks: Claude Code hooks have no trust step')
  }
  const valid = `valid events: ${CLAUDE_EXEC_EVENTS.join(', ')}`
  if (!isProducedEvent(eventName)) {
    if (isClaudeEvent(eventName)) {
      throw new CliError(
        `the Claude Code event "${eventName}" never fires in the harness (${UNPRODUCED_EVENTS[eventName as keyof typeof UNPRODUCED_EVENTS]}); ${valid}`,
      )
    }
    throw new CliError(`unknown Claude Code event "${eventName}"; ${valid}`)
  }
  const event: ProducedEvent = eventName
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  const { text: payload, parsed } = await readPayload(options.payload, cwd, io)
  const setup = claudeCodeSetup(cwd, options, io.env)
  const loaded = loadClaudeHooks(setup, io.env)
  const warn = (warning: string) => io.stderr.write(`harness: warning: ${indent(warning).trimStart()}\n`)
  if (!options.json) loaded.warnings.forEach(warn)

  const modelKernel = options.model === undefined ? undefined : await modelKernelFor(options.model, cwd, io.env)
  const mcpKernel = loaded.handlers.some((handler) => handler.event === event && handler.type === 'mcp_tool')
    ? createKernel([defaultMcpPlugin(cwd, io.env, { codex: undefined, claudeCode: setup }) ?? mcp({ servers: {} })], { cwd })
    : undefined
  const controller = new AbortController()
  const signals = watchSignals(() => controller.abort(), io.stderr)
  let result: ExecClaudeCodeEventResult
  try {
    const model = modelKernel?.resolve('model')
    // mcp_tool handlers call the MCP servers Claude Code would start here (its approved `.mcp.json`, user, local).
    await mcpKernel?.ready
    const mcpClients = mcpKernel?.resolve(MCP_CLIENTS_SERVICE as ServiceKey) as McpClients | undefined
    result = await execClaudeCodeEvent({
      loaded,
      event,
      payload,
      processRunner: new ExecProcessRunner(),
      // Claude Code runs hooks in the session's current cwd, which the payload carries.
      cwd: typeof parsed.cwd === 'string' ? resolve(cwd, parsed.cwd) : cwd,
      env: io.env,
      signal: controller.signal,
      ...(model === undefined ? {} : { model }),
      ...(mcpClients === undefined ? {} : { mcpClients }),
    })
  } finally {
    signals.stop()
    await modelKernel?.dispose()
    await mcpKernel?.dispose()
  }
  if (signals.received) return signalExitCode(signals.received)

  const skipped = new Set(result.skipped.map((skip) => skip.handler))
  const dropped = loaded.dropped.filter(({ handler }) => handler.event === event && !skipped.has(handler))
  if (options.json) {
    writeJson(io.stdout, claudeHookExecJson(result, { payload, dropped, loadWarnings: loaded.warnings }))
  } else {
    result.warnings.forEach(warn)
    io.stdout.write(`${renderClaudeHookExec(result, { dropped }, createStyle(colorEnabled(io.stdout, io.env)))}\n`)
  }
  return EXIT.ok
}

/** A kernel holding only the model plugin of `spec`, for prompt handlers. */
async function modelKernelFor(spec: string, cwd: string, env: CliIo['env']): Promise<Kernel> {
  const kernel = createKernel([createModelPlugin(spec, { cwd, env })], { cwd })
  try {
    await kernel.ready
  } catch (error) {
    await kernel.dispose()
    throw new CliError(`model "${spec}": ${errorMessage(error)}`, { cause: error })
  }
  return kernel
}

/** The payload's exact text (a file, or stdin for `-`) and its parse; it must be a JSON object. */
async function readPayload(file: string, cwd: string, io: CliIo): Promise<{ text: string; parsed: Record<string, unknown> }> {
  const name = file === '-' ? 'the payload on stdin' : `the payload ${resolve(cwd, file)}`
  let text: string
  try {
    text = file === '-' ? await readAll(io.stdin) : readFileSync(resolve(cwd, file), 'utf8')
  } catch (error) {
    throw new CliError(`cannot read ${name}: ${errorMessage(error)}`, { cause: error })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new CliError(`${name} is not JSON: ${errorMessage(error)}`, { cause: error })
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CliError(`${name} must be a JSON object`)
  return { text, parsed: parsed as Record<string, unknown> }
}

/** The event's handlers that match the payload's subject but did not run, and why. */
function skippedHandlers(
  loaded: LoadedCodexHooks,
  event: CodexEvent,
  subject: string | undefined,
  bypassTrust: boolean,
  ran: ReadonlySet<CodexHandler>,
): SkippedHandler[] {
  const skipped: SkippedHandler[] = []
  for (const handler of loaded.handlers) {
    if (handler.event !== event || ran.has(handler)) continue
    if (subject !== undefined) {
      const matcher = compileMatcher(handler.matcher, 'codex')
      if (!matcher.ok || !matcher.test(subject)) continue
    }
    const untrusted = !bypassTrust && (handler.trustStatus === 'untrusted' || handler.trustStatus === 'modified')
    if (!loaded.featureEnabled) skipped.push({ handler, reason: 'featureDisabled' })
    else if (!handler.enabled) skipped.push({ handler, reason: 'disabled' })
    else if (untrusted) skipped.push({ handler, reason: handler.trustStatus === 'modified' ? 'modified' : 'untrusted' })
    else if (handler.async) skipped.push({ handler, reason: 'async' })
  }
  return skipped
}
