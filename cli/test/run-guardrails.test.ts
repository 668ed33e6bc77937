import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../src/commands/run.js'
import type { CliIo } from '../src/io.js'
import { harness, project, readEvents, sessionsIn } from './support.js'

/** A script whose model runs one shell command, then answers `done`. */
function shellScript(input: Record<string, unknown>): string {
  return `steps:\n  - tool_calls:\n      - name: shell\n        input: ${JSON.stringify(input)}\n  - text: done\n`
}

/** The tool results of the one session a run left in `cwd`. */
function toolResults(cwd: string): string[] {
  const [id] = sessionsIn(join(cwd, '.harness/sessions'))
  return readEvents(join(cwd, '.harness/sessions', `${id}.jsonl`)).flatMap((event) => (event.type === 'tool/result' ? [event.output] : []))
}

const made: string[] = []
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A directory under /var/tmp (no default writable root covers it), removed after the file. */
function varTmpDir(prefix: string): string {
  const dir = mkdtempSync(join('/var/tmp', prefix))
  made.push(dir)
  return dir
}

const outsideDir = () => varTmpDir('hk-cli-outside-')

describe('harness run: the sandbox and approvals', () => {
  it('-s read-only: a command cannot write, and nothing is left', async () => {
    const cwd = project({ 'script.yaml': shellScript({ command: 'touch made' }) })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml', '-s', 'read-only'], { cwd })
    expect(result.code).toBe(0)
    expect(toolResults(cwd)[0]).toContain('Read-only file system')
    expect(existsSync(join(cwd, 'made'))).toBe(false)
  })

  it('by default (workspace-write) a command writes in the project and not outside it', async () => {
    const outside = outsideDir()
    const cwd = project({ 'script.yaml': shellScript({ command: `touch made && touch ${outside}/escaped` }) })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd })
    expect(result.code).toBe(0)
    expect(existsSync(join(cwd, 'made'))).toBe(true)
    expect(toolResults(cwd)[0]).toContain('Read-only file system')
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
  })

  it('with no terminal it acts as never, says so once, and refuses an escalation in Codex words', async () => {
    const outside = outsideDir()
    const cwd = project({
      'script.yaml': shellScript({ command: `touch ${outside}/escaped`, sandbox_permissions: 'require_escalated' }),
    })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd })
    expect(result.code).toBe(0)
    expect(result.stderr.match(/no terminal to ask for approval on/g)).toHaveLength(1)
    expect(toolResults(cwd)[0]).toBe(
      'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never',
    )
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
  })

  it('--dangerously-bypass-approvals-and-sandbox runs without a sandbox', async () => {
    const outside = outsideDir()
    const cwd = project({ 'script.yaml': shellScript({ command: `touch ${outside}/made` }) })
    const result = await harness(['run', 'go', '--model', 'scripted:script.yaml', '--dangerously-bypass-approvals-and-sandbox'], { cwd })
    expect(result.code).toBe(0)
    expect(existsSync(join(outside, 'made'))).toBe(true)
  })

  it("the user's Codex configuration carries over: sandbox_mode, -c over it, and a forbidden rule", async () => {
    const codexHome = varTmpDir('hk-cli-codex-home-')
    writeFileSync(join(codexHome, 'config.toml'), 'sandbox_mode = "read-only"\n')
    mkdirSync(join(codexHome, 'rules'))
    writeFileSync(join(codexHome, 'rules', 'default.rules'), 'prefix_rule(pattern=["git", "push"], decision="forbidden")\n')
    const readOnly = project({ 'script.yaml': shellScript({ command: 'touch made' }) })
    await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd: readOnly, env: { CODEX_HOME: codexHome } })
    expect(toolResults(readOnly)[0]).toContain('Read-only file system')

    const overridden = project({ 'script.yaml': shellScript({ command: 'touch made' }) })
    const args = ['run', 'go', '--model', 'scripted:script.yaml', '-c', 'sandbox_mode="workspace-write"']
    await harness(args, { cwd: overridden, env: { CODEX_HOME: codexHome } })
    expect(existsSync(join(overridden, 'made'))).toBe(true)

    const forbidden = project({ 'script.yaml': shellScript({ command: 'git push' }) })
    await harness(['run', 'go', '--model', 'scripted:script.yaml'], { cwd: forbidden, env: { CODEX_HOME: codexHome } })
    expect(toolResults(forbidden)[0]).toBe(
      'Rejected("`/bin/bash -lc \'git push\'` rejected: policy forbids commands starting with `git push`")',
    )
  })

  it('bad values exit 2, naming the value and where it came from', async () => {
    const cwd = project({ 'script.yaml': shellScript({ command: 'true' }) })
    const run = (args: string[], env: Record<string, string> = {}) =>
      harness(['run', 'go', '--model', 'scripted:script.yaml', ...args], { cwd, env })
    const codexHome = varTmpDir('hk-cli-codex-home-')
    writeFileSync(join(codexHome, 'config.toml'), 'approval_policy = "untrusted"\n')
    // Independent runs, side by side.
    const [badMode, badPolicy, both, badFlag, missingRoot, badConfig] = await Promise.all([
      run(['-s', 'read-mostly']),
      run(['-a', 'sometimes']),
      run(['--dangerously-bypass-approvals-and-sandbox', '-s', 'read-only']),
      run(['-c', 'sandbox_mode="nope"']),
      run(['-c', 'sandbox_workspace_write.writable_roots=["/nonexistent/hk-root"]']),
      run([], { CODEX_HOME: codexHome }),
    ])
    expect(badMode.code).toBe(2)
    expect(badMode.stderr).toMatch(/read-mostly/)
    expect(badMode.stderr).toMatch(/--sandbox/)
    expect(badPolicy.code).toBe(2)
    expect(badPolicy.stderr).toMatch(/sometimes[\s\S]*--ask-for-approval|--ask-for-approval[\s\S]*sometimes/)
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--dangerously-bypass-approvals-and-sandbox cannot be used with --sandbox or --ask-for-approval')
    expect(badFlag.code).toBe(2)
    expect(badFlag.stderr).toContain('nope')
    expect(missingRoot.code).toBe(2)
    expect(missingRoot.stderr).toContain('"/nonexistent/hk-root" does not exist')
    expect(badConfig.code).toBe(2)
    expect(badConfig.stderr).toContain('approval_policy = "untrusted" is no longer supported')
    expect(badConfig.stderr).toContain(join(codexHome, 'config.toml'))
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toBe('approval_policy = "untrusted"\n')
  })
})

/** An io whose stdin and stderr are terminals: what the user types goes to `type`, what is shown collects in `shown`. */
function terminalIo(cwd: string, codexHome: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true })
  const stderr = Object.assign(new PassThrough(), { isTTY: true })
  const stdout = new PassThrough()
  let shown = ''
  const prompts: (() => void)[] = []
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    shown += chunk
    if (chunk.includes('Allow? ')) prompts.shift()?.()
  })
  stdout.resume()
  const io: CliIo = { stdin, stdout, stderr, cwd, env: { ...process.env, NO_COLOR: '1', CODEX_HOME: codexHome, HARNESS_HOME: codexHome } }
  return {
    io,
    shown: () => shown,
    /** Answers the next approval prompts, in order, as they appear. */
    answer: (...lines: string[]) => {
      for (const line of lines) prompts.push(() => stdin.write(`${line}\n`))
    },
  }
}

describe('harness run on a terminal', () => {
  it('asks: the command, its cwd and the reason; y runs it, n tells the model, a remembers it for the session', async () => {
    const outside = outsideDir()
    const escalate = (file: string) => ({
      command: `touch ${outside}/${file}`,
      sandbox_permissions: 'require_escalated',
      justification: `May I create ${file}?`,
    })
    const script = `steps:\n${[escalate('yes'), escalate('no'), escalate('always'), escalate('always')]
      .map((input) => `  - tool_calls:\n      - name: shell\n        input: ${JSON.stringify(input)}\n`)
      .join('')}  - text: done\n`
    const cwd = project({ 'script.yaml': script })
    const terminal = terminalIo(cwd, varTmpDir('hk-cli-codex-home-'))
    terminal.answer('y', 'n', 'a')
    const code = await run('go', { model: 'scripted:script.yaml' }, terminal.io)
    expect(code).toBe(0)
    expect(terminal.shown().match(/Allow\? \[y\]es \/ \[n\]o \/ \[a\]lways for this session: /g)).toHaveLength(3)
    expect(terminal.shown()).toContain(`  command: touch ${outside}/yes\n  cwd:     ${cwd}\n  reason:  May I create yes?`)
    expect(existsSync(join(outside, 'yes'))).toBe(true)
    expect(existsSync(join(outside, 'no'))).toBe(false)
    expect(existsSync(join(outside, 'always'))).toBe(true)
    expect(toolResults(cwd)[1]).toBe('rejected by user')
  })
})
