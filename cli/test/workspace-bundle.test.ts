import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const LINKED_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'harness.js')

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/**
 * A repository in miniature: cli/bin/harness.js as committed, a dist/ and a dist-bundle/ whose bin.js print which they
 * are, and a package whose build info stamps the bundle (as `scripts/bundle.mjs --workspace` writes it).
 */
function workspace(): { root: string; bin: string; buildInfo: string; stamp: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'harness-workspace-bundle-'))
  dirs.push(root)
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  file('package.json', '{ "type": "module" }\n')
  file('cli/dist/bin.js', "console.log('dist')\n")
  file('cli/dist-bundle/bin.js', "console.log('workspace bundle')\n")
  file('kernel/dist/.tsbuildinfo', '{"version":"6.0.3"}\n')
  mkdirSync(join(root, 'cli', 'bin'))
  const bin = join(root, 'cli', 'bin', 'harness.js')
  copyFileSync(LINKED_BIN, bin)
  const buildInfo = join(root, 'kernel', 'dist', '.tsbuildinfo')
  const stamp = () => {
    const { size, mtimeMs } = statSync(buildInfo)
    file('cli/dist-bundle/sources.json', `${JSON.stringify({ sources: [['../../kernel/dist/.tsbuildinfo', size, mtimeMs]] })}\n`)
  }
  stamp()
  return { root, bin, buildInfo, stamp }
}

const run = (bin: string, cwd: string, args: string[] = []) =>
  execFileSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' }).trim()

describe('bin/harness.js in the repository', () => {
  it('runs the workspace bundle while the builds it was made from are unchanged', () => {
    const { root, bin } = workspace()
    expect(run(bin, root)).toBe('workspace bundle')
  })

  it('runs dist/ once a package is rebuilt, and the bundle again once it is rebuilt too', () => {
    const { root, bin, buildInfo, stamp } = workspace()
    writeFileSync(buildInfo, '{"version":"6.0.3","root":[1]}\n')
    expect(run(bin, root)).toBe('dist')
    stamp()
    expect(run(bin, root)).toBe('workspace bundle')
  })

  it('runs dist/ when a build rewrote a stamp with the same size', () => {
    const { root, bin, buildInfo } = workspace()
    const later = new Date(statSync(buildInfo).mtimeMs + 5_000)
    utimesSync(buildInfo, later, later)
    expect(run(bin, root)).toBe('dist')
  })

  it('runs dist/ when a stamped file is gone or the bundle has no stamps', () => {
    const first = workspace()
    rmSync(first.buildInfo)
    expect(run(first.bin, first.root)).toBe('dist')
    const second = workspace()
    rmSync(join(second.root, 'cli', 'dist-bundle', 'sources.json'))
    expect(run(second.bin, second.root)).toBe('dist')
  })

  it('runs dist/ for a project with a harness.config, so the config and the CLI share the packages', () => {
    const { root, bin } = workspace()
    const project = join(root, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'harness.config.mjs'), 'export default {}\n')
    expect(run(bin, project)).toBe('dist')
    expect(run(bin, root, ['--cwd', project])).toBe('dist')
    expect(run(bin, root, ['--config', 'elsewhere.mjs'])).toBe('dist')
  })

  it('loads dist/ once: the module graph require() loads ahead is the one bin.js then imports', () => {
    const { root, bin, buildInfo } = workspace()
    rmSync(buildInfo)
    writeFileSync(join(root, 'cli', 'dist', 'main.js'), 'globalThis.evaluations = (globalThis.evaluations ?? 0) + 1\n')
    writeFileSync(
      join(root, 'cli', 'dist', 'bin.js'),
      "import './main.js'\nconsole.log('dist, main.js evaluated', globalThis.evaluations, 'time')\n",
    )
    expect(run(bin, root)).toBe('dist, main.js evaluated 1 time')
  })

  it('runs a published bundle/ as it is, without stamps', () => {
    const { root, bin } = workspace()
    mkdirSync(join(root, 'cli', 'bundle'))
    writeFileSync(join(root, 'cli', 'bundle', 'bin.js'), "console.log('published bundle')\n")
    expect(run(bin, root)).toBe('published bundle')
  })
})
