import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { describeJsonType, isJsonObject } from '../config/json-value.js'
import type { SettingsDocument } from '../config/settings-document.js'
import { domainMatches } from '../run/permission-rule.js'

/** Claude Code's `sandbox` settings, merged across the settings files as Claude Code merges them. */
export interface ClaudeSandboxSettings {
  /** `sandbox.enabled`: Bash commands run in the sandbox. */
  enabled: boolean
  /** A sandboxed Bash call runs without the mode's prompt (rules still hold). */
  autoAllowBashIfSandboxed: boolean
  /** The model may ask to run a command outside the sandbox (it then goes through the permission flow). */
  allowUnsandboxedCommands: boolean
  /** Bash-rule patterns of commands that run outside the sandbox (every part of the line must match). */
  excludedCommands: string[]
  network: {
    /** Hosts reachable through the proxy: `example.com`, `*.example.com`. */
    allowedDomains: string[]
    deniedDomains: string[]
  }
  filesystem: {
    /** Absolute paths writable besides the working directories. */
    allowWrite: string[]
    /** Absolute paths never writable. */
    denyWrite: string[]
    /** Absolute paths never readable. */
    denyRead: string[]
    /** Absolute paths readable even under a `denyRead`. */
    allowRead: string[]
  }
}

export interface SandboxSettingsContext {
  cwd: string
  homeDir?: string
}

/** Claude Code's defaults (2.1.332's schema descriptions). */
const DEFAULTS = { enabled: false, autoAllowBashIfSandboxed: false, allowUnsandboxedCommands: true } as const
type Flag = keyof typeof DEFAULTS

/**
 * The `sandbox` of every settings file (documents in load order, highest precedence first): switches from the first
 * file that sets them, lists merged. Managed `network.allowManagedDomainsOnly` and `filesystem.allowManagedReadPathsOnly`
 * keep only the managed files' domains and read paths. A wrong type is skipped with a warning, never read as on.
 */
export function resolveSandboxSettings(
  documents: readonly SettingsDocument[],
  context: SandboxSettingsContext,
  warnings: string[],
): ClaudeSandboxSettings {
  const home = context.homeDir ?? homedir()
  const flags: Partial<Record<Flag, boolean>> = {}
  const settings: ClaudeSandboxSettings = {
    ...DEFAULTS,
    excludedCommands: [],
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] },
  }
  let managedDomainsOnly = false
  let managedReadsOnly = false
  const managed = { domains: [] as string[], reads: [] as string[] }
  for (const document of documents) {
    const sandbox = document.content?.sandbox
    const { path, source } = document.report
    if (sandbox === undefined) continue
    if (!isJsonObject(sandbox)) {
      warnings.push(`${path}: "sandbox" must be an object, got ${describeJsonType(sandbox)}; ignored`)
      continue
    }
    for (const flag of Object.keys(DEFAULTS) as Flag[]) {
      const value = sandbox[flag]
      if (value === undefined || flags[flag] !== undefined) continue
      if (typeof value === 'boolean') flags[flag] = value
      else warnings.push(`${path}: sandbox.${flag} must be a boolean, got ${describeJsonType(value)}; ignored`)
    }
    const list = (value: unknown, key: string): string[] => {
      if (value === undefined) return []
      if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value as string[]
      warnings.push(`${path}: sandbox.${key} must be an array of strings, got ${describeJsonType(value)}; ignored`)
      return []
    }
    const paths = (value: unknown, key: string) => list(value, key).map((entry) => sandboxPath(entry, context.cwd, home))
    settings.excludedCommands.push(...list(sandbox.excludedCommands, 'excludedCommands'))
    const network = isJsonObject(sandbox.network) ? sandbox.network : {}
    const domains = list(network.allowedDomains, 'network.allowedDomains').map((domain) => domain.toLowerCase())
    settings.network.allowedDomains.push(...domains)
    settings.network.deniedDomains.push(...list(network.deniedDomains, 'network.deniedDomains').map((domain) => domain.toLowerCase()))
    const filesystem = isJsonObject(sandbox.filesystem) ? sandbox.filesystem : {}
    settings.filesystem.allowWrite.push(...paths(filesystem.allowWrite, 'filesystem.allowWrite'))
    settings.filesystem.denyWrite.push(...paths(filesystem.denyWrite, 'filesystem.denyWrite'))
    settings.filesystem.denyRead.push(...paths(filesystem.denyRead, 'filesystem.denyRead'))
    const reads = paths(filesystem.allowRead, 'filesystem.allowRead')
    settings.filesystem.allowRead.push(...reads)
    if (source === 'managed') {
      managed.domains.push(...domains)
      managed.reads.push(...reads)
      if (network.allowManagedDomainsOnly === true) managedDomainsOnly = true
      if (filesystem.allowManagedReadPathsOnly === true) managedReadsOnly = true
    }
  }
  Object.assign(settings, flags)
  if (managedDomainsOnly) settings.network.allowedDomains = managed.domains
  if (managedReadsOnly) settings.filesystem.allowRead = managed.reads
  return settings
}

/** A sandbox path: `~/` under the home directory, `./` and bare names under the cwd, `/` (and `//`) absolute. */
function sandboxPath(entry: string, cwd: string, home: string): string {
  if (entry === '~') return home
  if (entry.startsWith('~/')) return join(home, entry.slice(2))
  if (entry.startsWith('//')) return resolve(entry.slice(1))
  return isAbsolute(entry) ? resolve(entry) : resolve(cwd, entry)
}

/**
 * What the sandbox's network makes of a host (Claude Code 2.1.332, observed): a denied domain is refused in every mode
 * (`deny-list`); an allowed one goes through; any other goes through under bypassPermissions and is otherwise refused
 * (`user`: Claude Code would ask, and nobody at a proxy can answer). `*.x.com` covers subdomains only; `127.0.0.1` is
 * not `localhost`.
 */
export function hostVerdict(host: string, network: ClaudeSandboxSettings['network'], bypass: boolean): 'allow' | 'deny-list' | 'user' {
  const matches = (pattern: string) => domainMatches(pattern, host)
  if (network.deniedDomains.some(matches)) return 'deny-list'
  if (bypass || network.allowedDomains.some(matches)) return 'allow'
  return 'user'
}
