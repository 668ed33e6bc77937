import { execFileSync, spawn } from 'node:child_process'
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Section } from './report.js'

/**
 * What `claude-code-real` needs of the real client: finding it and the shared real-clients harness, running it, reading
 * back what it wrote (`codex-real` runs the Codex the driver installs itself). What a hook adds: `hook-latency.ts`.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * A field of an installed package's manifest (the pins `npm ci` installs): `version`, or the Agent SDK's
 * `claudeCodeVersion`.
 */
export function installedManifestField(pkg: string, field = 'version'): string {
  // Looked up on the module paths: the Agent SDK's `exports` leave its package.json out, so it cannot be resolved.
  const folders = createRequire(import.meta.url).resolve.paths(pkg) ?? []
  const file = folders.map((folder) => join(folder, pkg, 'package.json')).find((candidate) => existsSync(candidate))
  if (file === undefined) throw new Error(`${pkg} is not installed (run npm ci)`)
  const value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[field]
  if (typeof value !== 'string') throw new Error(`${file} has no ${field}`)
  return value
}

/** Where shared/real-clients/install.sh put the clients: REAL_CLIENTS_HOME, else `~/.cache/harness-real-clients`. */
export const realClientsHome = (): string => process.env.REAL_CLIENTS_HOME || join(homedir(), '.cache', 'harness-real-clients')

export interface LocatedClient {
  /** The client's driver script in the shared real-clients folder. */
  script: string
  home: string
  bin: string
}

/**
 * Is the real client there, in the pinned version, with its driver script? Never installs anything.
 * @param client `Codex`, `Claude Code`: for the reasons
 * @param expected what the version should be, as a reason says it (`codex-cli 0.169.0`)
 * @param script the driver's path in the shared real-clients folder (REAL_CLIENTS_DIR, else `../shared/real-clients`)
 */
export function locateClient(spec: {
  client: string
  home: string
  bin: string
  versionOk: (version: string) => boolean
  expected: string
  script: readonly string[]
}): ({ ok: true } & LocatedClient) | { ok: false; reason: string } {
  const { home, bin } = spec
  try {
    accessSync(bin, constants.X_OK)
  } catch {
    return {
      ok: false,
      reason: `no real ${spec.client} at ${bin} (install it with shared/real-clients/install.sh, or set REAL_CLIENTS_HOME)`,
    }
  }
  let version: string
  try {
    version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch (error) {
    return { ok: false, reason: `${bin} --version failed: ${(error as Error).message}` }
  }
  if (!spec.versionOk(version)) return { ok: false, reason: `${bin} is "${version}", not ${spec.expected}` }
  const dir = process.env.REAL_CLIENTS_DIR ? resolve(process.env.REAL_CLIENTS_DIR) : resolve(REPO_ROOT, '../shared/real-clients')
  const script = join(dir, ...spec.script)
  if (!existsSync(script)) return { ok: false, reason: `${script} not found (set REAL_CLIENTS_DIR to the shared real-clients folder)` }
  return { ok: true, script, home, bin }
}

/**
 * A real-client benchmark's frame: the section `skipped: <reason>` (also on stderr) when the client is not there, else
 * `measure` in a fresh shell-safe temp dir (`<prefix>…`), which is removed afterwards.
 */
export async function withRealClient(
  title: string,
  located: ({ ok: true } & LocatedClient) | { ok: false; reason: string },
  prefix: string,
  measure: (located: LocatedClient, root: string) => Promise<Section>,
): Promise<Section> {
  if (!located.ok) {
    const skipped = `skipped: ${located.reason}`
    process.stderr.write(`${skipped}\n`)
    return { title, head: [], rows: [], notes: [skipped], data: { skipped: located.reason } }
  }
  const root = shellSafeTempDir(prefix)
  try {
    return await measure(located, root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/**
 * A fresh temp dir, its real path, under `/tmp` when the system's temp dir has white space: hook commands and the driver's
 * paths are shell strings holding these paths, so they stay free of spaces and symlinks.
 */
function shellSafeTempDir(prefix: string): string {
  const base = realpathSync(tmpdir())
  return realpathSync(mkdtempSync(join(/\s/.test(base) ? '/tmp' : base, prefix)))
}

/** Runs `file` with `args` and `env`, stdin closed; stdout and stderr together. */
export function runCapturing(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.once('error', fail)
    child.once('close', (code) => done({ code, output }))
  })
}

/** The error of a failed real-client run: `<bench>: <what> (<dir>): <the output's last 3 lines>`. */
export const runFailure =
  (bench: string, dir: string, output: string) =>
  (what: string): Error =>
    new Error(`${bench}: ${what} (${dir}): ${output.trim().split('\n').slice(-3).join(' | ')}`)

/** The JSON values of a JSON Lines file, one per non-empty line. */
export const jsonLines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown)
