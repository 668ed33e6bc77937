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
}

/**
 * Codex's project layers: every `.codex/` folder from the project root down to `cwd`, root first, each marked
 * trusted or not from the user's `[projects."<path>"] trust_level`. `config` is the user config merged with the
 * session flags (where `projects` and `project_root_markers` are read).
 */
export function projectLayers(cwd: string, codexHome: string, config: TomlTable): ProjectLayer[] {
  const markers = rootMarkers(config)
  const projectRoot = findProjectRoot(cwd, markers)
  const repoRoot = findRepoRoot(cwd)
  const trust = trustLevels(config)

  const trustOf = (dir: string): boolean => {
    const candidates = [...lookupKeys(dir), ...lookupKeys(projectRoot), ...(repoRoot ? lookupKeys(repoRoot) : [])]
    for (const key of candidates) {
      const level = trust.get(key)
      if (level !== undefined) return level === 'trusted'
    }
    return false
  }

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
    layers.push({ dir, dotCodex, trusted: trustOf(dir) })
  }
  return layers
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
