import { isAbsolute, relative, resolve } from 'node:path'
import { pathGlobSource } from './glob-source.js'

export interface PathRuleContext {
  /** The session's current directory: the anchor of `path` and `./path`, and what a relative `file_path` is resolved against. */
  cwd: string
  /** The anchor of `/path`. */
  projectDir: string
  /** The anchor of `~/path`. */
  homeDir: string
}

/**
 * Whether `filePath` matches a Read/Edit rule pattern, gitignore style: `//path` is absolute, `~/path` is under the home
 * directory, `/path` under the project root, `path` and `./path` under the cwd. A pattern without a slash matches at any
 * depth below its anchor; a pattern that matches a directory matches everything in it; a trailing `/` matches directories only.
 */
export function matchesPathPattern(pattern: string, filePath: string, context: PathRuleContext): boolean {
  const { base, glob } = anchorOf(pattern, context)
  const path = relative(base, resolve(context.cwd, filePath))
  if (path === '' || path === '..' || path.startsWith('../') || isAbsolute(path)) return false
  const directoryOnly = glob.endsWith('/')
  const body = glob.replace(/\/+$/, '')
  if (body === '') return true
  const anywhere = !body.includes('/')
  const regex = new RegExp(`^${anywhere ? '(?:.*/)?' : ''}${pathGlobSource(body)}$`, 's')
  const segments = path.split('/')
  const last = directoryOnly ? segments.length - 1 : segments.length
  for (let count = 1; count <= last; count++) {
    if (regex.test(segments.slice(0, count).join('/'))) return true
  }
  return false
}

function anchorOf(pattern: string, context: PathRuleContext): { base: string; glob: string } {
  if (pattern.startsWith('//')) return { base: '/', glob: pattern.slice(2) }
  if (pattern === '~') return { base: context.homeDir, glob: '' }
  if (pattern.startsWith('~/')) return { base: context.homeDir, glob: pattern.slice(2) }
  if (pattern.startsWith('/')) return { base: context.projectDir, glob: pattern.slice(1) }
  if (pattern === '.') return { base: context.cwd, glob: '' }
  if (pattern.startsWith('./')) return { base: context.cwd, glob: pattern.slice(2) }
  return { base: context.cwd, glob: pattern }
}
