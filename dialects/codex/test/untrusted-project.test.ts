/**
 * A project's `.codex/` folder whose project Codex does not trust: its hooks are not loaded (as in Codex), but the
 * harness says so, why, and how to trust the project; `trustCodexProject` trusts it the way Codex's trust prompt does.
 * Real temp CODEX_HOMEs and projects, real hook processes; never the real ~/.codex.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { SessionEvent } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks, projectTrustCommand, trustCodexProject, untrustedProjectNotice } from '../src/index.js'
import { codexHarnessPerTest, hookRuns, RECORDER } from './codex-harness.js'
import { command, gitRoot, put, tempRoot } from './fixtures/config/layout.js'

const stop = (tag: string) => ({ hooks: { Stop: [{ hooks: [command(`echo ${tag}`)] }] } })

/** A git project `proj` with hooks in `proj/.codex/hooks.json` and `proj/a/.codex/config.toml`, and a Codex home. */
function untrustedLayout(userConfig?: string) {
  const root = realpathSync(tempRoot())
  const project = gitRoot(root, 'proj')
  const codexHome = join(root, 'home')
  const json = put(project, '.codex/hooks.json', stop('root'))
  const toml = put(project, 'a/.codex/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "echo a"\n')
  put(project, 'a/b/.codex/config.toml', 'model = "no hooks here"\n')
  const configPath = userConfig === undefined ? join(codexHome, 'config.toml') : put(codexHome, 'config.toml', userConfig)
  return { root, project, codexHome, json, toml, configPath, cwd: join(project, 'a/b') }
}

describe('an untrusted project', () => {
  it('loadCodexHooks reports the .codex/ files that hold hooks and are not loaded, and why', () => {
    const { project, codexHome, json, toml, configPath, cwd } = untrustedLayout()
    const loaded = loadCodexHooks({ cwd, codexHome })
    expect(loaded.handlers).toEqual([])
    expect(loaded.untrustedProject).toEqual({
      path: project,
      configPath,
      layers: [
        { dir: project, dotCodex: join(project, '.codex'), hookFiles: [json], trustEntry: undefined },
        { dir: join(project, 'a'), dotCodex: join(project, 'a/.codex'), hookFiles: [toml], trustEntry: undefined },
      ],
    })
    expect(untrustedProjectNotice(loaded.untrustedProject!)).toBe(
      `the project's .codex/ hooks are not loaded because the project ${project} is not trusted ` +
        `(no [projects.${JSON.stringify(project)}] trust_level in ${configPath}): ${json}, ${toml}. ` +
        'Trust the project as Codex does with `harness hooks trust --project` (add --all to trust its hooks too), or trust it in Codex',
    )
  })

  it('names the entry that keeps it untrusted; a trusted project, or one without hooks in .codex/, is not reported', () => {
    const marked = untrustedLayout()
    put(marked.codexHome, 'config.toml', `[projects.${JSON.stringify(marked.project)}]\ntrust_level = "untrusted"\n`)
    const loaded = loadCodexHooks({ cwd: marked.cwd, codexHome: marked.codexHome })
    expect(loaded.untrustedProject?.layers.map((layer) => layer.trustEntry)).toEqual([
      { key: marked.project, level: 'untrusted' },
      { key: marked.project, level: 'untrusted' },
    ])
    expect(untrustedProjectNotice(loaded.untrustedProject!)).toContain(
      `is not trusted (trust_level = "untrusted" for [projects.${JSON.stringify(marked.project)}] in ${marked.configPath})`,
    )

    const trusted = untrustedLayout()
    put(trusted.codexHome, 'config.toml', `[projects.${JSON.stringify(trusted.project)}]\ntrust_level = "trusted"\n`)
    const all = loadCodexHooks({ cwd: trusted.cwd, codexHome: trusted.codexHome })
    expect(all.untrustedProject).toBeUndefined()
    expect(all.handlers.map((handler) => handler.source)).toEqual(['project', 'project'])

    const root = realpathSync(tempRoot())
    const plain = gitRoot(root, 'plain')
    put(plain, '.codex/config.toml', 'model = "x"\n')
    expect(loadCodexHooks({ cwd: plain, codexHome: join(root, 'home') }).untrustedProject).toBeUndefined()
  })

  it('trustCodexProject writes [projects."<repository root>"] trust_level = "trusted", changing no other byte', () => {
    const userConfig = '# mine\nmodel = "gpt-5.1-codex"   # keep\n\n[model_providers.local]\nname = "Local"\n'
    const { project, codexHome, configPath, cwd } = untrustedLayout(userConfig)
    const result = trustCodexProject({ cwd, codexHome })
    expect(result).toEqual({ project, configPath, trusted: [project] })
    expect(readFileSync(configPath, 'utf8')).toBe(`${userConfig}\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`)

    const loaded = loadCodexHooks({ cwd, codexHome })
    expect(loaded.untrustedProject).toBeUndefined()
    // The project's hooks load now; each still needs its own trust, as in Codex.
    expect(loaded.handlers.map((handler) => [handler.source, handler.trustStatus])).toEqual([
      ['project', 'untrusted'],
      ['project', 'untrusted'],
    ])

    const mtime = statSync(configPath).mtimeMs
    expect(trustCodexProject({ cwd, codexHome }).trusted).toEqual([])
    expect(statSync(configPath).mtimeMs).toBe(mtime)
  })

  it('trustCodexProject replaces an untrusted entry in place, also a folder’s own, and creates config.toml if missing', () => {
    const { project, codexHome, configPath, cwd } = untrustedLayout()
    const folder = join(project, 'a')
    const before = `[projects.${JSON.stringify(project)}]\ntrust_level = "untrusted" # no\n\n[projects.${JSON.stringify(folder)}]\ntrust_level = "untrusted"\n`
    put(codexHome, 'config.toml', before)
    expect(trustCodexProject({ cwd, codexHome }).trusted).toEqual([project, folder])
    expect(readFileSync(configPath, 'utf8')).toBe(before.replaceAll('"untrusted"', '"trusted"'))
    expect(loadCodexHooks({ cwd, codexHome }).handlers).toHaveLength(2)

    const fresh = untrustedLayout()
    expect(trustCodexProject({ cwd: fresh.project, codexHome: fresh.codexHome }).trusted).toEqual([fresh.project])
    expect(readFileSync(fresh.configPath, 'utf8')).toBe(`[projects.${JSON.stringify(fresh.project)}]\ntrust_level = "trusted"\n`)
  })

  it('refuses a config.toml it cannot edit without reformatting, naming the file', () => {
    const { codexHome, configPath, cwd } = untrustedLayout('projects = 5\n')
    expect(() => trustCodexProject({ cwd, codexHome })).toThrow(`${configPath}: cannot set projects: projects is not a table in the config`)
    expect(readFileSync(configPath, 'utf8')).toBe('projects = 5\n')
  })

  it('projectTrustCommand adds --cwd and --codex-home when given, quoted for the shell when needed', () => {
    expect(projectTrustCommand()).toBe('harness hooks trust --project')
    expect(projectTrustCommand({ cwd: '/tmp/my project', codexHome: "/tmp/it's" })).toBe(
      `harness hooks trust --project --cwd '/tmp/my project' --codex-home '/tmp/it'\\''s'`,
    )
  })
})

describe('the session notice', () => {
  const setup = codexHarnessPerTest()

  it('says at session start that the project’s .codex/ hooks are not loaded, why, and how to trust the project', async () => {
    const h = setup({ script: [{ text: 'ok' }], options: { trust: 'codex' } })
    put(h.cwd, '.git/HEAD', 'ref: refs/heads/main\n')
    const json = put(h.cwd, '.codex/hooks.json', { hooks: { Stop: [{ hooks: [command(`${RECORDER} Stop project`)] }] } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(hookRuns(session.transcriptPath)).toEqual([])
    const notices = readFileSync(session.transcriptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent)
      .flatMap((event) => (event.type === 'notice' ? [event] : []))
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'warning',
        source: 'codex-hooks',
        text:
          `the project's .codex/ hooks are not loaded because the project ${h.cwd} is not trusted ` +
          `(no [projects.${JSON.stringify(h.cwd)}] trust_level in ${join(h.codexHome, 'config.toml')}): ${json}. ` +
          `Trust the project as Codex does with \`harness hooks trust --project --cwd ${h.cwd} --codex-home ${h.codexHome}\` ` +
          '(add --all to trust its hooks too), or trust it in Codex',
      }),
    ])

    trustCodexProject({ cwd: h.cwd, codexHome: h.codexHome })
    const next = await h.kernel.startSession()
    await next.run('go')
    const texts = readFileSync(next.transcriptPath, 'utf8')
    expect(texts).not.toContain('are not loaded because the project')
    // Loaded now, but the hook itself is untrusted: the notice for it says how to trust it.
    expect(texts).toContain(`Codex hook ${json}:stop:0:0 (Stop: ${RECORDER} Stop project) is untrusted and will not run`)
  })
})
