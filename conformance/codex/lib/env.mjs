// Where things are: the repository, the shared real-client harness, the real Codex binary.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SUITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const REPO_ROOT = resolve(SUITE_DIR, '../..')
export const HOOK_SCRIPT = join(SUITE_DIR, 'lib', 'hook.sh')
export const SCENARIOS_DIR = join(SUITE_DIR, 'scenarios')
export const EXPECTED_DIR = join(SUITE_DIR, 'expected')
export const GOLDEN_DIR = join(REPO_ROOT, 'dialects', 'codex', 'test', 'fixtures', 'golden')
export const CODEX_VERSION = '0.169.0'

/** shared/real-clients (read-only): REAL_CLIENTS_DIR, else the `shared` folder next to the repository. */
export function realClientsDir() {
  return process.env.REAL_CLIENTS_DIR ? resolve(process.env.REAL_CLIENTS_DIR) : resolve(REPO_ROOT, '../shared/real-clients')
}

export function runCaseScript() {
  return join(realClientsDir(), 'codex', 'run-case.sh')
}

export function realClientsHome() {
  return process.env.REAL_CLIENTS_HOME || join(homedir(), '.cache', 'harness-real-clients')
}

/** The codex launcher, as shared/real-clients/lib/clients.sh finds it. */
export function codexBin() {
  return process.env.CODEX_BIN || join(realClientsHome(), 'node_modules', '.bin', 'codex')
}

/**
 * Is the real Codex there? Never installs or downloads anything.
 * @returns {{ ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }}
 */
export function probeCodex() {
  const bin = codexBin()
  try {
    accessSync(bin, constants.X_OK)
  } catch {
    return { ok: false, reason: `no executable at ${bin}` }
  }
  if (!existsSync(runCaseScript())) return { ok: false, reason: `${runCaseScript()} not found (set REAL_CLIENTS_DIR)` }
  let version
  try {
    version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch (error) {
    return { ok: false, reason: `${bin} --version failed: ${error.message}` }
  }
  const warning = version.includes(CODEX_VERSION) ? undefined : `expected codex-cli ${CODEX_VERSION}, found "${version}"`
  return { ok: true, bin, version, warning }
}

/** A fresh temp directory with a space-free, symlink-free path (hook commands are shell strings). */
export function makeTempRoot(prefix) {
  let base = realpathSync(tmpdir())
  if (/\s/.test(base)) base = '/tmp'
  return realpathSync(mkdtempSync(join(base, prefix)))
}

/** Variables of the harnesses that must not leak into the clients' (and so the hooks') env. */
export const HARNESS_VARS = [
  'OUT',
  'RC_SNAPSHOT',
  'MODE',
  'CODEX_TIMEOUT',
  'APPROVAL',
  'SANDBOX',
  'TRUST',
  'EXEC_TRUST_FLAG',
  'APP_ARGS',
  'HOOK_OUT',
  'HOOK_RESP',
  'CODEX_HOME',
]

export function cleanEnv(extra = {}) {
  const env = { ...process.env }
  for (const name of HARNESS_VARS) delete env[name]
  return { ...env, ...extra }
}
