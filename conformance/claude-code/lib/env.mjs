// Where things are: the repository, the shared real-client harness, the real Claude Code binary
// (what both suites share is in ../../lib/real-clients.mjs, the binaries and pins in ../../lib/pinned-clients.mjs).
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findClaude, pinnedClaudeVersion } from '../../lib/pinned-clients.mjs'
import { envCleaner, isExecutable, probeClient, REPO_ROOT, realClientsDir } from '../../lib/real-clients.mjs'

export { makeTempRoot, REPO_ROOT, realClientsDir, realClientsHome } from '../../lib/real-clients.mjs'

export const SUITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const SCENARIOS_DIR = join(SUITE_DIR, 'scenarios')
export const EXPECTED_DIR = join(SUITE_DIR, 'expected')
export const GOLDEN_DIR = join(REPO_ROOT, 'dialects', 'claude-code', 'test', 'fixtures', 'golden')
/** The Claude Code of the Agent SDK drivers/claude-code/package.json pins. */
export const CLAUDE_VERSION = pinnedClaudeVersion()
/** `--model` of the classic `<system-reminder>` rendering (the default model gets the system-role rendering). */
export const CLASSIC_MODEL = 'claude-sonnet-4-5-20250929'

export const claudeHarnessDir = () => join(realClientsDir(), 'claude-code')
export const runCliScript = () => join(claudeHarnessDir(), 'run-cli.sh')
/** The hook command both sides run (it records stdin, env and cwd, then runs `$RC_MODE_DIR/<Event>`). */
export const hookScript = () => join(claudeHarnessDir(), 'bin', 'hook.sh')
export const modesDir = () => join(claudeHarnessDir(), 'modes')

/** The native `claude` the suite runs: CLAUDE_BIN, the workspace's, or $REAL_CLIENTS_HOME's (../../lib/pinned-clients.mjs). */
export const claudeBin = () => findClaude().bin

/**
 * Is the real Claude Code there (and the shared driver scripts)? Never installs or downloads anything.
 * @returns {{ ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }}
 */
export function probeClaude() {
  return probeClient({
    bin: claudeBin(),
    script: runCliScript(),
    expected: `Claude Code ${CLAUDE_VERSION}`,
    versionOk: (version) => version.includes(CLAUDE_VERSION),
    timeoutMs: 30_000,
    env: cleanEnv({ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' }),
  })
}

/**
 * The directory with `bwrap` and `socat` that the Claude Code side of a `claudeSandboxPath` scenario gets first on its
 * PATH (Claude Code's Linux sandbox runs commands under bubblewrap and bridges the network with socat):
 * `CLAUDE_SANDBOX_BIN`. Only Claude Code's side: the kernel finds its own bubblewrap.
 * @returns {{ ok: true, dir: string } | { ok: false, reason: string }}
 */
export function claudeSandboxBin() {
  const dir = process.env.CLAUDE_SANDBOX_BIN
  if (!dir) return { ok: false, reason: "CLAUDE_SANDBOX_BIN is not set (a directory with bwrap and socat for Claude Code's sandbox)" }
  const missing = ['bwrap', 'socat'].filter((name) => !isExecutable(join(dir, name)))
  if (missing.length) return { ok: false, reason: `CLAUDE_SANDBOX_BIN=${dir} has no executable ${missing.join(', ')}` }
  return { ok: true, dir: resolve(dir) }
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
  'CLAUDE_SANDBOX_BIN',
]
/** Prefixes of variables Claude Code sets for hooks: dropped from the inherited env so each side shows only what it sets. */
const CLIENT_VAR =
  /^(CLAUDECODE$|CLAUDE_CODE_|CLAUDE_PROJECT_DIR$|CLAUDE_ENV_FILE$|CLAUDE_EFFORT$|CLAUDE_PID$|CLAUDE_PLUGIN_|CLAUDE_AGENT_SDK_)/

export const cleanEnv = envCleaner(HARNESS_VARS, CLIENT_VAR)

/** The env of the shared scripts (run-cli.sh): `cleanEnv(extra)` with CLAUDE_BIN set to the claude this suite probed. */
export const scriptEnv = (extra = {}) => cleanEnv({ CLAUDE_BIN: claudeBin(), ...extra })
