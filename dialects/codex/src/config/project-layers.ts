import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { isTable, type TomlTable } from './toml-table.js'

export interface ProjectLayer {
  /** The directory holding `.codex/`. */
  dir: string
  /** `<dir>/.codex`: its hooks.json and config.toml form the layer. */
  dotCodex: string
  /** Codex loads a project layer's config and hooks only when its directory is trusted. */
  trusted: boolean
  /** The `[projects."<key>"]` entry that decided (its key and `trust_level`); undefined when none names the folder. */
  trustEntry: { key: string; level: string } | undefined
}

/** How Codex decides project trust for one working directory. */
export interface ProjectTrust {
  /** The nearest ancestor holding a root marker (`.git` by default), else `cwd`. */
  projectRoot: string
  /** The repository whose root Codex falls back to for trust (a worktree's main repository), canonical. */
  repoRoot: string | undefined
  /** What Codex records when the user trusts the project: the repository root, else `cwd`; canonical. */
  target: string
  /** Every `.codex/` folder from the project root down to `cwd`, root first. */
  layers: ProjectLayer[]
}

/**
 * Codex's project layers: every `.codex/` folder from the project root down to `cwd`, root first, each marked
 * trusted or not from the user's `[projects."<path>"] trust_level`. `config` is the user config merged with the
 * session flags (where `projects` and `project_root_markers` are read).
 */
export function projectLayers(cwd: string, codexHome: string, config: TomlTable): ProjectLayer[] {
  return projectTrust(cwd, codexHome, config).layers
}

/** The project layers of `cwd` with what decided their trust, and where Codex records trust for this project. */
export function projectTrust(cwd: string, codexHome: string, config: TomlTable): ProjectTrust {
  const { projectRoot, repoRoot, entryFor } = trustLookup(cwd, config)
  const dirs: string[] = []
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift(dir)
    if (dir === projectRoot || dirname(dir) === dir) break
  }
  const home = canonical(codexHome)
  const layers: ProjectLayer[] = []
  for (const dir of dirs) {
    const dotCodex = join(dir, '.codex')
    if (!isDirectory(dotCodex) || dotCodex === codexHome || canonical(dotCodex) === home) continue
    const trustEntry = entryFor(dir)
    layers.push({ dir, dotCodex, trusted: trustEntry?.level === 'trusted', trustEntry })
  }
  return { projectRoot, repoRoot, target: repoRoot ?? canonical(cwd), layers }
}

/**
 * The `[projects."<key>"]` entries to set to `trust_level = "trusted"` so that Codex trusts the project of `cwd` and
 * every `.codex/` folder it reads there: the project's own entry (`target`) unless it is trusted already, and the
 * entry of any folder that another entry still keeps untrusted. Empty when everything is trusted.
 */
export function projectTrustKeys(cwd: string, codexHome: string, config: TomlTable): string[] {
  const { target, layers } = projectTrust(cwd, codexHome, config)
  const lookup = trustLookup(cwd, config)
  const keys: string[] = []
  const trust = (key: string) => {
    if (!keys.includes(key)) keys.push(key)
    lookup.levels.set(key, 'trusted')
  }
  if (lookup.levels.get(target) !== 'trusted') trust(target)
  for (const layer of layers) {
    const entry = lookup.entryFor(layer.dir)
    if (entry?.level !== 'trusted') trust(entry?.key ?? canonical(layer.dir))
  }
  return keys
}

interface TrustLookup {
  projectRoot: string
  repoRoot: string | undefined
  levels: Map<string, string>
  /** The entry that decides a folder's trust: its own, else the project root's, else the repository root's. */
  entryFor(dir: string): { key: string; level: string } | undefined
}

function trustLookup(cwd: string, config: TomlTable): TrustLookup {
  const projectRoot = findProjectRoot(cwd, rootMarkers(config))
  const repoRoot = findRepoRoot(cwd)
  const levels = trustLevels(config)
  const entryFor = (dir: string) => {
    const candidates = [...lookupKeys(dir), ...lookupKeys(projectRoot), ...(repoRoot ? lookupKeys(repoRoot) : [])]
    for (const key of candidates) {
      const level = levels.get(key)
      if (level !== undefined) return { key, level }
    }
    return undefined
  }
  return { projectRoot, repoRoot, levels, entryFor }
}

function rootMarkers(config: TomlTable): readonly string[] {
  const markers = config.project_root_markers
  return Array.isArray(markers) && markers.every((marker) => typeof marker === 'string') ? markers : ['.git']
}

/** The nearest ancestor of `cwd` holding a marker; `cwd` itself when there is none (or no markers). */
export function findProjectRoot(cwd: string, markers: readonly string[]): string {
  if (markers.length === 0) return cwd
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (markers.some((marker) => hasMarker(dir, marker))) return dir
    if (dirname(dir) === dir) return cwd
  }
}

/**
 * Codex 0.169.0 does not take any `.git` as a project root: an empty `.git` directory is passed over, while a
 * `.git` file (worktree, submodule) or a `.git` directory with a `HEAD` counts. Other markers only need to exist.
 */
function hasMarker(dir: string, marker: string): boolean {
  const path = join(dir, marker)
  if (marker !== '.git') return existsSync(path)
  try {
    const stat = statSync(path)
    return stat.isFile() || (stat.isDirectory() && existsSync(join(path, 'HEAD')))
  } catch {
    return false
  }
}

/** The repository Codex falls back to for trust (`git rev-parse --git-common-dir`'s parent), without running git. */
function findRepoRoot(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (hasMarker(dir, '.git')) {
      const gitPath = join(dir, '.git')
      if (statSync(gitPath).isFile()) {
        const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(gitPath, 'utf8'))?.[1]
        const worktrees = gitdir ? resolve(dir, gitdir) : undefined
        const common = worktrees && /[/\\]worktrees[/\\][^/\\]+$/.test(worktrees) ? dirname(dirname(worktrees)) : undefined
        if (common) return canonical(dirname(common))
      }
      return canonical(dir)
    }
    if (dirname(dir) === dir) return undefined
  }
}

function trustLevels(config: TomlTable): Map<string, string> {
  const levels = new Map<string, string>()
  if (!isTable(config.projects)) return levels
  for (const [key, project] of Object.entries(config.projects)) {
    if (isTable(project) && typeof project.trust_level === 'string') levels.set(key, project.trust_level)
  }
  return levels
}

/** Codex looks a directory up by its canonical path first, then as given. */
function lookupKeys(dir: string): string[] {
  const real = canonical(dir)
  return real === dir ? [dir] : [real, dir]
}

function canonical(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
