import { existsSync, mkdirSync } from 'node:fs'
import { homedir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { type FilteringProxy, type SandboxConfinement, startFilteringProxy } from '@harness-kernel/kernel'
import type { PermissionMode } from '../io/payload.js'
import { bashSubcommands } from '../permissions/bash-subcommands.js'
import { subcommandsNotAllowed } from '../permissions/rule-match.js'
import { type ClaudeSandboxSettings, hostVerdict } from '../permissions/sandbox-settings.js'
import type { ClaudePermissionSettings, PermissionRule } from '../permissions/types.js'

/**
 * What Claude Code 2.1.332's sandbox keeps read-only in the project (its bwrap arguments, observed): its own settings
 * and extension folders, and files a shell or git would run code from.
 */
const PROTECTED_IN_PROJECT = [
  '.claude',
  '.mcp.json',
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.vscode',
  '.idea',
  '.git/hooks',
  '.git/config',
]

export interface SessionSandboxOptions {
  settings: ClaudeSandboxSettings
  permissions: ClaudePermissionSettings
  cwd: string
  projectDir: string
  /** The session's working directories as they are now (an approval for the session may add one). */
  workingDirectories: () => readonly string[]
  /** The mode in force: under bypassPermissions the network lets unlisted hosts through. */
  mode: PermissionMode | undefined
  homeDir?: string
}

/**
 * A session's Claude Code sandbox (`sandbox.enabled`): the confinement each sandboxed Bash call runs under, on top of
 * the kernel's own policy, and the network proxy its domain lists filter through (started on first use, closed with
 * the session).
 */
export class SessionSandbox {
  readonly settings: ClaudeSandboxSettings
  readonly #options: SessionSandboxOptions
  #proxy: Promise<FilteringProxy> | undefined
  /** Connections the proxy refused, in order, as Claude Code reports them (`host:port`). */
  readonly #blocked: string[] = []
  /** Where each confined call's share of `#blocked` starts. */
  readonly #blockedFrom = new Map<string, number>()

  constructor(options: SessionSandboxOptions) {
    this.settings = options.settings
    this.#options = options
  }

  get enabled(): boolean {
    return this.settings.enabled
  }

  /**
   * Whether a line runs outside the sandbox: every part matches `excludedCommands` (and it has no `cd`, substitution
   * or redirection, which Claude Code keeps sandboxed), or the model asked for it (`sandbox_permissions:
   * "require_escalated"`, Claude Code's `dangerouslyDisableSandbox`) where `allowUnsandboxedCommands` lets it.
   */
  runsOutside(command: string, unsandboxedAsked: boolean): boolean {
    if (unsandboxedAsked && this.settings.allowUnsandboxedCommands) return true
    if (this.settings.excludedCommands.length === 0) return false
    if (/\$\(|`|(^|[^>&\d])>(?!&)|<(?!\()/.test(command)) return false
    const parts = bashSubcommands(command)
    if (parts === undefined || parts.some((part) => /^cd(\s|$)/.test(part.text))) return false
    const left = subcommandsNotAllowed(this.settings.excludedCommands.map(excludedRule), command)
    return left !== undefined && left.length === 0
  }

  /** The confinement of a sandboxed Bash call (`callId`: whose network refusals `violations` reports). */
  async confinement(callId: string): Promise<SandboxConfinement> {
    this.#blockedFrom.set(callId, this.#blocked.length)
    const { settings, permissions, projectDir } = this.#options
    const home = this.#options.homeDir ?? homedir()
    const tmp = claudeTmpDir()
    const concrete = (tool: string, behavior: PermissionRule['behavior']) =>
      permissions.rules.flatMap((rule) =>
        rule.tool === tool && rule.behavior === behavior ? (concretePath(rule, this.#options.cwd, home) ?? []) : [],
      )
    const denyRead = [...settings.filesystem.denyRead, ...concrete('Read', 'deny')].filter(
      (path) => !settings.filesystem.allowRead.includes(path),
    )
    const proxy = await this.#startProxy()
    return {
      writableRoots: [...this.#options.workingDirectories(), ...settings.filesystem.allowWrite, ...concrete('Edit', 'allow'), tmp],
      denyWrite: [
        ...PROTECTED_IN_PROJECT.map((name) => join(projectDir, name)).filter((path) => existsSync(path)),
        ...settings.filesystem.denyWrite,
        ...concrete('Edit', 'deny'),
      ],
      denyRead,
      proxy: { socketPath: proxy.socketPath },
      env: { TMPDIR: tmp, CLAUDE_TMPDIR: tmp, CLAUDE_CODE_TMPDIR: tmp, SANDBOX_RUNTIME: '1' },
    }
  }

  /** Calls the model asked to run outside the sandbox that were let out (their `tool_response` says so). */
  readonly ranOutside = new Set<string>()

  /** The `<sandbox_violations>` block of a call so far, without taking it (PostToolUse's `stderr` carries it). */
  peekViolations(callId: string): string {
    const from = this.#blockedFrom.get(callId)
    const lines = from === undefined ? [] : this.#blocked.slice(from).map((target) => `deny network-outbound ${target}`)
    return lines.length === 0 ? '' : `<sandbox_violations>\n${lines.join('\n')}\n</sandbox_violations>`
  }

  /**
   * Claude Code's report of what the sandbox refused a call, appended to what the model sees (observed for the
   * network: `<sandbox_violations>` with one `deny network-outbound host:port (user denied)` line each); empty when
   * nothing was refused or the call was not confined.
   */
  violations(callId: string): string {
    const block = this.peekViolations(callId)
    this.#blockedFrom.delete(callId)
    this.ranOutside.delete(callId)
    return block === '' ? '' : `\n${block}`
  }

  async close(): Promise<void> {
    const proxy = this.#proxy
    this.#proxy = undefined
    if (proxy !== undefined) await (await proxy).close()
  }

  #startProxy(): Promise<FilteringProxy> {
    const { settings, permissions } = this.#options
    // `WebFetch(domain:…)` rules reach the sandbox's network too, as in Claude Code.
    const fetchDomains = (behavior: PermissionRule['behavior']) =>
      permissions.rules.flatMap((rule) =>
        rule.tool === 'WebFetch' && rule.behavior === behavior && rule.content?.startsWith('domain:')
          ? [rule.content.slice('domain:'.length).trim().toLowerCase()]
          : [],
      )
    const network = {
      allowedDomains: [...settings.network.allowedDomains, ...fetchDomains('allow')],
      deniedDomains: [...settings.network.deniedDomains, ...fetchDomains('deny')],
    }
    const bypass = this.#options.mode === 'bypassPermissions'
    this.#proxy ??= startFilteringProxy({
      allows: (host) => hostVerdict(host, network, bypass) === 'allow',
      onBlocked: (host, port) => {
        const why = hostVerdict(host, network, bypass) === 'deny-list' ? 'host is on the deny list' : 'user denied'
        this.#blocked.push(`${host}:${port} (${why})`)
      },
    })
    return this.#proxy
  }
}

/** Claude Code's temporary folder for sandboxed commands, `/tmp/claude-<uid>` (created if missing). */
function claudeTmpDir(): string {
  const dir = `/tmp/claude-${userInfo().uid}`
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}

function excludedRule(pattern: string): PermissionRule {
  const content = /^Bash\((.*)\)$/s.exec(pattern)?.[1] ?? pattern
  return { text: pattern, tool: 'Bash', content, behavior: 'allow', source: 'user', path: '', root: '' }
}

/**
 * The path a Read or Edit rule names, when it names one the sandbox can bind (no glob, or a trailing `/**`); a rule
 * matching by pattern elsewhere is enforced by the permission checks alone.
 */
function concretePath(rule: PermissionRule, cwd: string, home: string): string | undefined {
  const content = rule.content
  if (content === undefined) return undefined
  const body = content.endsWith('/**') ? content.slice(0, -3) : content
  if (/[*?[]/.test(body) || body === '') return undefined
  if (body.startsWith('//')) return resolve(body.slice(1))
  if (body.startsWith('~/')) return join(home, body.slice(2))
  if (body.startsWith('/')) return join(rule.root, body)
  return resolve(cwd, body)
}
