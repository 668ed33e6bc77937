// A client version installed into a scratch folder outside the workspace, as a user installs it: `npm install
// --no-audit --no-fund --save-exact <package>@<version>`. An install that is already there is reused.
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from '../../conformance/lib/real-clients.mjs'
import { DriftError } from './drift-error.mjs'
import { npmErrorLine } from './registry.mjs'

export const CACHE_DIR = join(homedir(), '.cache', 'harness-kernel-drift')

/** `~/.cache/harness-kernel-drift/@openai+codex@0.172.0`. */
export const defaultFolder = (pkg, version) => join(CACHE_DIR, `${pkg.replace('/', '+')}@${version}`)

const installedVersion = (folder, pkg) => {
  try {
    return JSON.parse(readFileSync(join(folder, 'node_modules', pkg, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

// `npm run drift` hands npm's own settings down (npm_config_local_prefix is the workspace): the install must not see them
const npmEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_(config_(local_prefix|prefix|workspaces?\b)|package_|lifecycle_)/i.test(name)),
  )

/**
 * @param {{ pkg: string, version: string, folder: string, binaryIn: (from: string) => string | undefined }} spec
 *   binaryIn: the client's binary in an install that `from` (a file in the folder) resolves
 * @returns {Promise<{ folder: string, from: string, bin: string, reused: boolean }>}
 */
export async function installClient({ pkg, version, folder, binaryIn }) {
  const dir = resolve(folder)
  const inside = relative(realpathSync(REPO_ROOT), existsSync(dir) ? realpathSync(dir) : dir)
  if (!inside.startsWith('..') && !inside.startsWith('/'))
    throw new DriftError(`${dir} is inside the workspace: drift installs only into a scratch folder outside it`)
  const from = join(dir, 'package.json')
  const present = installedVersion(dir, pkg) === version ? binaryIn(from) : undefined
  if (present) return { folder: dir, from, bin: present, reused: true }
  const created = !existsSync(dir)
  mkdirSync(dir, { recursive: true })
  if (!existsSync(from)) writeFileSync(from, `${JSON.stringify({ name: 'harness-kernel-drift', private: true }, null, 2)}\n`)
  process.stderr.write(`drift: npm install ${pkg}@${version} into ${dir} …\n`)
  try {
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--save-exact', '--prefix', dir, `${pkg}@${version}`], {
      cwd: dir,
      env: npmEnv(),
      encoding: 'utf8',
      timeout: 20 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    if (created) rmSync(dir, { recursive: true, force: true })
    throw new DriftError(`could not install ${pkg}@${version} into ${dir}: ${npmErrorLine(error.stderr) || error.message}`)
  }
  const bin = binaryIn(from)
  if (!bin)
    throw new DriftError(`${pkg}@${version} installed into ${dir}, but without its native binary for ${process.platform}-${process.arch}`)
  return { folder: dir, from, bin, reused: false }
}
