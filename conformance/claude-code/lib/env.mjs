// Where things are: the repository, the shared real-client harness, the real Claude Code binary.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SUITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const REPO_ROOT = resolve(SUITE_DIR, '../..')
export const SCENARIOS_DIR = join(SUITE_DIR, 'scenarios')
export const EXPECTED_DIR = join(SUITE_DIR, 'expected')
export const GOLDEN_DIR = join(REPO_ROOT, 'dialects', 'claude-code', 'test', 'fixtures', 'golden')
export const CLAUDE_VERSION = '2.1.332'
/** `--model` of the classic `<system-reminder>` rendering (the default model gets the system-role rendering). */
export const CLASSIC_MODEL = 'claude-sonnet-4-5-20250929'

/** shared/real-clients (read-only): REAL_CLIENTS_DIR, else the `shared` folder next to the repository. */
export function realClientsDir() {
  return process.env.REAL_CLIENTS_DIR ? resolve(process.env.REAL_CLIENTS_DIR) : resolve(REPO_ROOT, '../shared/real-clients')
}
export const claudeHarnessDir = () => join(realClientsDir(), 'claude-code')
export const runCliScript = () => join(claudeHarnessDir(), 'run-cli.sh')
/** The hook command both sides run (it records stdin, env and cwd, then runs `$RC_MODE_DIR/<Event>`). */
export const hookScript = () => join(claudeHarnessDir(), 'bin', 'hook.sh')
export const modesDir = () => join(claudeHarnessDir(), 'modes')

export function realClientsHome() {
  return process.env.REAL_CLIENTS_HOME || join(homedir(), '.cache', 'harness-real-clients')
}

/** The native `claude`, found the way shared/real-clients/lib/clients.sh finds it. */
export function claudeBin() {
  if (process.env.CLAUDE_BIN) return process.env.CLAUDE_BIN
  const base = join(realClientsHome(), 'node_modules', '@anthropic-ai')
  const plat = `${process.platform}-${process.arch}`
  const candidates = [join(base, `claude-agent-sdk-${plat}`, 'claude'), join(base, `claude-agent-sdk-${plat}-musl`, 'claude')]
  if (existsSync(base))
    for (const d of readdirSync(base).sort()) if (d.startsWith('claude-agent-sdk-')) candidates.push(join(base, d, 'claude'))
  return candidates.find((f) => isExecutable(f)) ?? candidates[0]
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Is the real Claude Code there (and the shared driver scripts)? Never installs or downloads anything.
 * @returns {{ ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }}
 */
export function probeClaude() {
  const bin = claudeBin()
  if (!isExecutable(bin)) return { ok: false, reason: `no executable at ${bin}` }
  if (!existsSync(runCliScript())) return { ok: false, reason: `${runCliScript()} not found (set REAL_CLIENTS_DIR)` }
  let version
  try {
    version = execFileSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: cleanEnv({ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' }),
    }).trim()
  } catch (error) {
    return { ok: false, reason: `${bin} --version failed: ${error.message}` }
  }
  const warning = version.includes(CLAUDE_VERSION) ? undefined : `expected Claude Code ${CLAUDE_VERSION}, found "${version}"`
  return { ok: true, bin, version, warning }
}

/** A fresh temp directory with a space-free, symlink-free path (hook commands are shell strings). */
export function makeTempRoot(prefix) {
  let base = realpathSync(tmpdir())
  if (/\s/.test(base)) base = '/tmp'
  return realpathSync(mkdtempSync(join(base, prefix)))
}

/** Variables of the harnesses (and of an enclosing Claude Code or kernel session) that must not leak into either side. */
export const HARNESS_VARS = [
  'OUT',
  'RC_SNAPSHOT',
  'RC_RUN',
  'RC_OUT',
  'RC_MODE_DIR',
  'PROJ',
  'PROJECT_SETTINGS',
  'HOOK_MODE',
  'HOOK_SH',
  'MODES_DIR',
  'CLAUDE_TIMEOUT',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_API_KEY',
  'AI_AGENT',
]
/** Prefixes of variables Claude Code sets for hooks: dropped from the inherited env so each side shows only what it sets. */
const CLIENT_VAR =
  /^(CLAUDECODE$|CLAUDE_CODE_|CLAUDE_PROJECT_DIR$|CLAUDE_ENV_FILE$|CLAUDE_EFFORT$|CLAUDE_PID$|CLAUDE_PLUGIN_|CLAUDE_AGENT_SDK_)/

export function cleanEnv(extra = {}) {
  const env = { ...process.env }
  for (const name of HARNESS_VARS) delete env[name]
  for (const name of Object.keys(env)) if (CLIENT_VAR.test(name)) delete env[name]
  return { ...env, ...extra }
}
