import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { harness, project, readEvents, sessionsIn } from './support.js'

/** A script whose model makes the given tool calls one step each, then answers `done`. */
function script(...calls: { name: string; input: Record<string, unknown> }[]): string {
  const steps = calls.map((call) => `  - tool_calls:\n      - name: ${call.name}\n        input: ${JSON.stringify(call.input)}\n`)
  return `steps:\n${steps.join('')}  - text: done\n`
}

/** The tool results of the one session a run left in `cwd`. */
function toolResults(cwd: string): string[] {
  const [id] = sessionsIn(join(cwd, '.harness/sessions'))
  return readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`)).flatMap((event) => (event.type === 'tool/result' ? [event.output] : []))
}

/** What the model was sent, all of it, as text. */
function modelSaw(cwd: string): string {
  const [id] = sessionsIn(join(cwd, '.harness/sessions'))
  return JSON.stringify(readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`)))
}

const homes: string[] = []
afterAll(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A Claude config dir of its own that trusts `projectDir` (as after Claude Code's trust dialog). */
function claudeHome(projectDir?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-cli-claude-'))
  homes.push(dir)
  if (projectDir !== undefined) {
    writeFileSync(join(dir, '.claude.json'), JSON.stringify({ projects: { [projectDir]: { hasTrustDialogAccepted: true } } }))
  }
  return dir
}

describe('harness run: the project’s Claude Code permissions', () => {
  it('a project that denies Bash(rm:*) and Read(./.env): neither runs, and the secret never reaches the model', async () => {
    const cwd = project({
      'script.yaml': script({ name: 'shell', input: { command: 'rm -rf src' } }, { name: 'read_file', input: { path: '.env' } }),
      '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)', 'Read(./.env)'] } }),
      '.env': 'API_KEY=sk-secret-1234\n',
      'src/keep.ts': 'export {}\n',
    })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd })
    expect(result.code).toBe(0)
    expect(toolResults(cwd)).toEqual([
      'Permission to use Bash with command rm -rf src has been denied.',
      '<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>',
    ])
    expect(existsSync(join(cwd, 'src/keep.ts'))).toBe(true)
    expect(modelSaw(cwd)).not.toContain('sk-secret-1234')
  })

  it('--permission-mode default with no terminal: an edit is refused with Claude Code’s text', async () => {
    const cwd = project({ 'script.yaml': script({ name: 'write_file', input: { path: 'w.txt', content: 'x' } }) })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml', '--permission-mode', 'default'], {
      cwd,
      env: { CLAUDE_CONFIG_DIR: claudeHome() },
    })
    expect(result.code).toBe(0)
    expect(toolResults(cwd)).toEqual([`Claude requested permissions to write to ${join(cwd, 'w.txt')}, but you haven't granted it yet.`])
    expect(existsSync(join(cwd, 'w.txt'))).toBe(false)
  })

  it('--permission-mode acceptEdits and --add-dir: edits run in the project and the added folder', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'harness-cli-extra-'))
    homes.push(extra)
    const cwd = project({
      'script.yaml': script(
        { name: 'write_file', input: { path: 'w.txt', content: 'x' } },
        { name: 'write_file', input: { path: join(extra, 'e.txt'), content: 'y' } },
      ),
    })
    const result = await harness(
      ['run', 'go', '--model', 'scripted:script.yaml', '--permission-mode', 'acceptEdits', '--add-dir', extra, '-s', 'danger-full-access'],
      { cwd, env: { CLAUDE_CONFIG_DIR: claudeHome() } },
    )
    expect(result.code).toBe(0)
    expect(existsSync(join(cwd, 'w.txt'))).toBe(true)
    expect(existsSync(join(extra, 'e.txt'))).toBe(true)
  })

  it('a trusted project’s allow rule lets a command run that the mode would ask about; untrusted, it is ignored with a warning', async () => {
    const files = {
      'script.yaml': script({ name: 'shell', input: { command: 'touch made' } }),
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(touch:*)'], defaultMode: 'default' } }),
    }
    const trusted = project(files)
    await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd: trusted, env: { CLAUDE_CONFIG_DIR: claudeHome(trusted) } })
    expect(existsSync(join(trusted, 'made'))).toBe(true)
    const untrusted = project(files)
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml'], {
      cwd: untrusted,
      env: { CLAUDE_CONFIG_DIR: claudeHome() },
    })
    expect(existsSync(join(untrusted, 'made'))).toBe(false)
    expect(result.stderr).toContain('Ignoring 1 permissions.allow entry from .claude/settings.json: this workspace has not been trusted.')
  })

  it('a bad --permission-mode exits 2 naming the modes; it cannot be used without the Claude Code dialect', async () => {
    const cwd = project({ 'script.yaml': script() })
    const bad = await harness(['run', 'go', '--model', 'scripted:script.yaml', '--permission-mode', 'yolo'], { cwd })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      '--permission-mode: unknown permission mode "yolo"; expected one of default, acceptEdits, plan, auto, dontAsk, bypassPermissions',
    )
    const without = await harness(['run', 'go', '--model', 'scripted:script.yaml', '--no-claude-code-hooks', '--permission-mode', 'plan'], {
      cwd,
    })
    expect(without.code).toBe(2)
    expect(without.stderr).toContain('--permission-mode cannot be used with --no-claude-code-hooks')
  })
})
