import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, relative } from 'node:path'

/** A folder under the system's temporary directory, for one test: its files, then removed. */
export interface TempProject {
  /** The folder's real path (symbolic links resolved, as a kernel's `cwd` compares paths). */
  readonly dir: string
  /** The absolute path of a file inside the project. */
  path(file: string): string
  /** Writes a file inside the project, its folders made. */
  write(file: string, content: string): string
  remove(): void
}

export interface TempProjectOptions {
  /** The folder name's prefix. Default `harness-test-`. */
  prefix?: string
  /** Files to write first: relative path → content. */
  files?: Record<string, string>
}

export function createTempProject(options: TempProjectOptions = {}): TempProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'harness-test-')))
  const path = (file: string) => {
    const full = join(dir, file)
    if (isAbsolute(file) || relative(dir, full).startsWith('..'))
      throw new Error(`a project file must be a path inside the project, got ${file}`)
    return full
  }
  const project: TempProject = {
    dir,
    path,
    write(file, content) {
      const full = path(file)
      mkdirSync(dirname(full), { recursive: true })
      writeFileSync(full, content)
      return full
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
  for (const [file, content] of Object.entries(options.files ?? {})) project.write(file, content)
  return project
}
