import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'

/** Where a bubblewrap was found, so that a failure can name it. */
export interface BwrapLocation {
  path: string
  source: BwrapSource
}

/** The `bwrap` option, the `HARNESS_BWRAP` variable, `bwrap` on PATH, or the one `@openai/codex` vendors. */
export type BwrapSource = 'option' | 'HARNESS_BWRAP' | 'PATH' | '@openai/codex'

export interface FindBwrapOptions {
  /** A bwrap to use; it is not looked for elsewhere then. */
  bwrap?: string
  /** Where `HARNESS_BWRAP` and `PATH` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * The bubblewrap to sandbox with: the one asked for (option, then `HARNESS_BWRAP`) even if it does not exist, so the
 * failure names it; else `bwrap` on PATH; else the one `@openai/codex` ships. Undefined when there is none.
 */
export function findBwrap(options: FindBwrapOptions = {}): BwrapLocation | undefined {
  if (options.bwrap) return { path: options.bwrap, source: 'option' }
  const env = options.env ?? process.env
  if (env.HARNESS_BWRAP) return { path: env.HARNESS_BWRAP, source: 'HARNESS_BWRAP' }
  const onPath = findOnPath('bwrap', env.PATH ?? '')
  if (onPath !== undefined) return { path: onPath, source: 'PATH' }
  const vendored = codexBwrap()
  if (vendored !== undefined) return { path: vendored, source: '@openai/codex' }
  return undefined
}

function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

const CODEX_TARGETS: Partial<Record<NodeJS.Architecture, string>> = { x64: 'x86_64', arm64: 'aarch64' }

/** The `@openai/codex-linux-<arch>` package's bwrap, resolved from the working directory and from this module. */
export function codexBwrap(): string | undefined {
  const target = CODEX_TARGETS[process.arch]
  if (process.platform !== 'linux' || target === undefined) return undefined
  const platformPackage = `@openai/codex-linux-${process.arch}/package.json`
  for (const base of [join(process.cwd(), 'package.json'), import.meta.url]) {
    const require = createRequire(base)
    // npm hoists the platform package, or nests it under @openai/codex (its optional dependency).
    const manifest = resolveFrom(require, platformPackage) ?? nestedUnderCodex(require, platformPackage)
    if (manifest === undefined) continue
    const bwrap = join(dirname(manifest), 'vendor', `${target}-unknown-linux-musl`, 'codex-resources', 'bwrap')
    if (existsSync(bwrap)) return bwrap
  }
  return undefined
}

function nestedUnderCodex(require: NodeJS.Require, request: string): string | undefined {
  const codex = resolveFrom(require, '@openai/codex/package.json')
  return codex === undefined ? undefined : resolveFrom(createRequire(codex), request)
}

function resolveFrom(require: NodeJS.Require, request: string): string | undefined {
  try {
    return require.resolve(request)
  } catch {
    return undefined
  }
}
