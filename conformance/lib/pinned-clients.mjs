// The real programs the conformance suites run, and the versions the repository pins: the pins come from the drivers'
// package.json, the binaries from CODEX_BIN/CLAUDE_BIN, else the workspace's install (`npm ci`), else
// $REAL_CLIENTS_HOME (shared/real-clients/install.sh). The suites hand the chosen binary to the shared scripts as
// CODEX_BIN/CLAUDE_BIN, so the scripts and the suites run the same program.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { isExecutable, REPO_ROOT, realClientsHome } from './real-clients.mjs'

export const CODEX_PACKAGE = '@openai/codex'
export const SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk'

const CODEX_TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-msvc',
  'win32-arm64': 'aarch64-pc-windows-msvc',
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))
const dependencyOf = (workspace, name) => readJson(join(REPO_ROOT, workspace, 'package.json')).dependencies?.[name]

/** The exact `@openai/codex` version drivers/codex/package.json pins: `0.171.0`. */
export const pinnedCodexVersion = () => dependencyOf('drivers/codex', CODEX_PACKAGE)

/** The exact Agent SDK version drivers/claude-code/package.json pins: `0.3.336`. */
export const pinnedSdkVersion = () => dependencyOf('drivers/claude-code', SDK_PACKAGE)

/**
 * The folder of the Agent SDK that `from` (a file) resolves. Its `exports` leave out package.json, so the entry point
 * is resolved instead.
 */
export function sdkPackageDir(from) {
  try {
    return dirname(createRequire(from).resolve(SDK_PACKAGE))
  } catch {
    return undefined
  }
}

/**
 * The Claude Code version an Agent SDK package.json bundles: its `claudeCodeVersion`, else derived from the SDK's own
 * version (0.3.N ships Claude Code 2.1.N).
 * @param {{ version: string, claudeCodeVersion?: string }} manifest
 */
export function claudeCodeVersionOf(manifest) {
  if (manifest.claudeCodeVersion) return manifest.claudeCodeVersion
  const match = /^0\.3\.(\d+)$/.exec(manifest.version)
  if (!match) throw new Error(`${SDK_PACKAGE} ${manifest.version}: no claudeCodeVersion and not of the form 0.3.N`)
  return `2.1.${match[1]}`
}

/**
 * The Claude Code version of the pinned SDK: the installed SDK's `claudeCodeVersion` when the installed SDK is the pinned
 * one, else derived from the pin (an install older than the pin says nothing about the pin).
 */
export function pinnedClaudeVersion() {
  const pin = pinnedSdkVersion()
  const dir = sdkPackageDir(join(REPO_ROOT, 'drivers', 'claude-code', 'package.json'))
  const manifest = dir ? readJson(join(dir, 'package.json')) : undefined
  return claudeCodeVersionOf(manifest?.version === pin ? manifest : { version: pin })
}

/**
 * The native `codex` of the `@openai/codex` that `from` (a file) resolves, as drivers/codex/src/codex-executable.ts
 * finds it; undefined when it is not installed there.
 */
export function codexNativeIn(from) {
  const key = `${process.platform}-${process.arch}`
  const target = CODEX_TARGETS[key]
  if (!target) return undefined
  try {
    const root = dirname(createRequire(from).resolve(`${CODEX_PACKAGE}-${key}/package.json`))
    const bin = join(root, 'vendor', target, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex')
    return isExecutable(bin) ? bin : undefined
  } catch {
    return undefined
  }
}

/**
 * The npm launcher of the `@openai/codex` that `from` resolves (`node_modules/.bin/codex`, the command a user runs);
 * undefined when it is not there.
 */
export function codexLauncherIn(from) {
  try {
    const nodeModules = dirname(dirname(dirname(createRequire(from).resolve(`${CODEX_PACKAGE}/package.json`))))
    const bin = join(nodeModules, '.bin', 'codex')
    return isExecutable(bin) ? bin : undefined
  } catch {
    return undefined
  }
}

/**
 * The native Claude Code of the Agent SDK's platform package that `from` resolves, as
 * drivers/claude-code/src/claude-executable.ts finds it; undefined when it is not installed there.
 */
export function claudeNativeIn(from) {
  const require = createRequire(from)
  const base = `${SDK_PACKAGE}-${process.platform}-${process.arch}`
  const binary = process.platform === 'win32' ? 'claude.exe' : 'claude'
  for (const name of [base, `${base}-musl`]) {
    try {
      const bin = join(dirname(require.resolve(`${name}/package.json`)), binary)
      if (isExecutable(bin)) return bin
    } catch {}
  }
  return undefined
}

const WORKSPACE_CODEX = () => join(REPO_ROOT, 'drivers', 'codex', 'package.json')
const WORKSPACE_CLAUDE = () => join(REPO_ROOT, 'drivers', 'claude-code', 'package.json')

/**
 * The Codex the suites run: CODEX_BIN, else the workspace's native binary, else `$REAL_CLIENTS_HOME/node_modules/.bin/codex`.
 * `launcher`: the npm launcher of the same install, where there is one (capture-golden records the process tree a user's
 * `codex` makes). `bin` is the last candidate when none exists, for the probe's message.
 * @returns {{ bin: string, launcher?: string, source: 'CODEX_BIN' | 'workspace' | 'REAL_CLIENTS_HOME' }}
 */
export function findCodex() {
  if (process.env.CODEX_BIN) return { bin: process.env.CODEX_BIN, source: 'CODEX_BIN' }
  const native = codexNativeIn(WORKSPACE_CODEX())
  if (native) return { bin: native, launcher: codexLauncherIn(WORKSPACE_CODEX()), source: 'workspace' }
  const bin = join(realClientsHome(), 'node_modules', '.bin', 'codex')
  return { bin, launcher: bin, source: 'REAL_CLIENTS_HOME' }
}

/**
 * The Claude Code the suites run: CLAUDE_BIN, else the workspace's native binary, else the one in $REAL_CLIENTS_HOME (as
 * shared/real-clients/lib/clients.sh finds it). `bin` is the last candidate when none exists, for the probe's message.
 * @returns {{ bin: string, source: 'CLAUDE_BIN' | 'workspace' | 'REAL_CLIENTS_HOME' }}
 */
export function findClaude() {
  if (process.env.CLAUDE_BIN) return { bin: process.env.CLAUDE_BIN, source: 'CLAUDE_BIN' }
  const native = claudeNativeIn(WORKSPACE_CLAUDE())
  if (native) return { bin: native, source: 'workspace' }
  const base = join(realClientsHome(), 'node_modules', '@anthropic-ai')
  const plat = `${process.platform}-${process.arch}`
  const candidates = [join(base, `claude-agent-sdk-${plat}`, 'claude'), join(base, `claude-agent-sdk-${plat}-musl`, 'claude')]
  if (existsSync(base))
    for (const d of readdirSync(base).sort()) if (d.startsWith('claude-agent-sdk-')) candidates.push(join(base, d, 'claude'))
  return { bin: candidates.find((f) => isExecutable(f)) ?? candidates[0], source: 'REAL_CLIENTS_HOME' }
}
