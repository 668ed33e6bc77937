// Where things are for both suites: the repository, the shared real-client harness and its
// clients; a temp root fit for shell strings; the env the clients (and so their hooks) get.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The stdio MCP server of both suites' MCP scenarios (depends only on @modelcontextprotocol/sdk). */
export const MCP_SERVER_SCRIPT = join(REPO_ROOT, 'conformance', 'lib', 'mcp-server.mjs')

/** shared/real-clients (read-only): REAL_CLIENTS_DIR, else the `shared` folder next to the repository. */
export function realClientsDir() {
  return process.env.REAL_CLIENTS_DIR ? resolve(process.env.REAL_CLIENTS_DIR) : resolve(REPO_ROOT, '../shared/real-clients')
}

/** Where shared/real-clients/install.sh put the clients: REAL_CLIENTS_HOME, else `~/.cache/harness-real-clients`. */
export function realClientsHome() {
  return process.env.REAL_CLIENTS_HOME || join(homedir(), '.cache', 'harness-real-clients')
}

export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Is the real client there (and its driver script)? Never installs or downloads anything.
 * @param {{ bin: string, script: string, expected: string, versionOk: (version: string) => boolean, timeoutMs: number, env?: object }} spec
 *   expected: the pinned version as the warning names it (`codex-cli 0.169.0`); env: for `<bin> --version`
 * @returns {{ ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }}
 */
export function probeClient({ bin, script, expected, versionOk, timeoutMs, env }) {
  if (!isExecutable(bin)) return { ok: false, reason: `no executable at ${bin}` }
  if (!existsSync(script)) return { ok: false, reason: `${script} not found (set REAL_CLIENTS_DIR)` }
  let version
  try {
    version = execFileSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'ignore'],
      ...(env ? { env } : {}),
    }).trim()
  } catch (error) {
    return { ok: false, reason: `${bin} --version failed: ${error.message}` }
  }
  const warning = versionOk(version) ? undefined : `expected ${expected}, found "${version}"`
  return { ok: true, bin, version, warning }
}

/** A fresh temp directory with a space-free, symlink-free path (hook commands are shell strings). */
export function makeTempRoot(prefix) {
  let base = realpathSync(tmpdir())
  if (/\s/.test(base)) base = '/tmp'
  return realpathSync(mkdtempSync(join(base, prefix)))
}

/**
 * The `cleanEnv(extra)` of a suite: this process's env without `names` (the harnesses' variables) and, with `pattern`,
 * without the variables it matches; `extra` over that.
 * @param {string[]} names
 * @param {RegExp} [pattern]
 */
export function envCleaner(names, pattern) {
  return (extra = {}) => {
    const env = { ...process.env }
    for (const name of names) delete env[name]
    if (pattern) for (const name of Object.keys(env)) if (pattern.test(name)) delete env[name]
    return { ...env, ...extra }
  }
}
