// The client script: each scenario runs unchanged against the real `codex app-server` and `harness app-server`,
// naming its steps; the suite compares what each server sent in each step.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { itemCompleted, notification } from './wire-client.mjs'

const CLIENT = { clientInfo: { name: 'conformance', title: null, version: '0.0.1' }, capabilities: { experimentalApi: true } }
const text = (value) => [{ type: 'text', text: value, text_elements: [] }]
const turnCompleted = notification('turn/completed')

/** initialize + initialized + thread/start; resolves with the thread id. */
async function open(s, ctx) {
  s.step('initialize')
  await s.request('initialize', CLIENT)
  s.sendRaw('{"method":"initialized"}')
  s.step('thread/start')
  const started = await s.request('thread/start', { cwd: ctx.cwd })
  await s.waitFor(notification('thread/started'))
  return started.result.thread.id
}

async function runTurn(s, threadId, prompt) {
  const started = await s.request('turn/start', { threadId, input: text(prompt) })
  await s.waitFor(turnCompleted)
  return started.result.turn.id
}

const BASE_SCENARIOS = [
  {
    name: 'text-turn',
    plan: [{ kind: 'text', text: 'Hello there', chunks: 3 }],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('turn: a streamed answer')
      await runTurn(s, threadId, 'say hello')
    },
  },
  {
    name: 'shell-turn',
    plan: [
      { kind: 'shell', cmd: 'echo hi' },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('turn: one shell command')
      await runTurn(s, threadId, 'run echo hi')
    },
  },
  {
    name: 'failing-command',
    plan: [
      { kind: 'shell', cmd: 'echo oops >&2; exit 3' },
      { kind: 'text', text: 'it failed' },
    ],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('turn: a command that exits 3')
      await runTurn(s, threadId, 'run a failing command')
    },
  },
  {
    name: 'steer-during-command',
    plan: [
      { kind: 'shell', cmd: 'sleep 1; echo slept' },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('turn/start')
      const started = await s.request('turn/start', { threadId, input: text('run the slow command') })
      await s.waitFor(notification('item/started', (params) => params.item?.type === 'commandExecution'))
      s.step('turn/steer while the command runs')
      await s.request('turn/steer', {
        threadId,
        expectedTurnId: started.result.turn.id,
        input: text('also check the docs'),
        clientUserMessageId: 'steer-1',
      })
      s.step('the rest of the turn')
      await s.waitFor(turnCompleted)
    },
  },
  {
    name: 'interrupt-during-command',
    plan: [
      { kind: 'shell', cmd: 'sleep 5; echo never' },
      { kind: 'text', text: 'never' },
    ],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('turn/start')
      const started = await s.request('turn/start', { threadId, input: text('run the long command') })
      await s.waitFor(notification('item/started', (params) => params.item?.type === 'commandExecution'))
      s.step('turn/interrupt, until turn/completed')
      await s.request('turn/interrupt', { threadId, turnId: started.result.turn.id })
      await s.waitFor(turnCompleted)
      // What either server still says of the stopped command comes here.
      await new Promise((resolve) => setTimeout(resolve, 500))
      s.step('turn/steer after the interrupt')
      await s.request('turn/steer', { threadId, expectedTurnId: started.result.turn.id, input: text('too late') })
    },
  },
  {
    name: 'errors',
    plan: [{ kind: 'text', text: 'ok' }],
    async run(s, ctx) {
      s.step('a request before initialize')
      await s.request('thread/start', {})
      const threadId = await open(s, ctx)
      s.step('initialize again')
      await s.request('initialize', CLIENT)
      s.step('an unknown method')
      await s.request('nothing/here', {})
      s.step('turn/steer with no turn running')
      await s.request('turn/steer', { threadId, expectedTurnId: 'no-such-turn', input: text('x') })
      s.step('turn/interrupt with no turn running')
      await s.request('turn/interrupt', { threadId, turnId: 'no-such-turn' })
      s.step('turn/start without input')
      await s.request('turn/start', { threadId })
      s.step('turn/start with input that is not an array')
      await s.request('turn/start', { threadId, input: 'not an array' })
      s.step('turn/start with empty input')
      // Codex 0.169.0 starts a turn with no new input (the model is asked again); wait for it when one starts.
      const empty = await s.request('turn/start', { threadId, input: [] })
      if (empty.result) await s.waitFor(turnCompleted)
      s.step('turn/steer without expectedTurnId')
      await s.request('turn/steer', { threadId, input: text('x') })
      s.step('thread/resume of an unknown thread')
      await s.request('thread/resume', { threadId: '00000000-0000-7000-8000-000000000000' })
      s.step('a request whose id is an object')
      s.sendRaw(JSON.stringify({ id: { nested: true }, method: 'thread/start', params: {} }))
      await new Promise((resolve) => setTimeout(resolve, 500))
      s.step('a line that is not JSON')
      s.sendRaw('this is not json')
      await new Promise((resolve) => setTimeout(resolve, 300))
      s.step('still answering')
      await s.request('turn/steer', { threadId, expectedTurnId: 'x', input: text('x') })
    },
  },
  {
    name: 'list-and-read',
    plan: [{ kind: 'text', text: 'listed' }],
    async run(s, ctx) {
      const threadId = await open(s, ctx)
      s.step('a turn')
      await runTurn(s, threadId, 'remember this')
      s.step('thread/list')
      await s.request('thread/list', {})
      // Codex 0.171.0's filter: only these threads; an empty list matches none; at most 100.
      s.step('thread/list of included threads')
      await s.request('thread/list', { includedThreadIds: [threadId] })
      s.step('thread/list of no included thread')
      await s.request('thread/list', { includedThreadIds: [] })
      s.step('thread/list of 101 included threads')
      await s.request('thread/list', { includedThreadIds: Array.from({ length: 101 }, () => threadId) })
      s.step('mcpServerStatus/list of an environment without the server and thread')
      await s.request('mcpServerStatus/list', { environmentId: 'local' })
      s.step('thread/read with turns')
      await s.request('thread/read', { threadId, includeTurns: true })
      s.step('thread/loaded/list')
      await s.request('thread/loaded/list', {})
    },
  },
]

// Guardrails: Codex's sandbox modes and approval policies (docs/guardrails.md, the App Server README's "Sandbox and
// approvals"). Each thread/start passes Codex's own parameters; the facts are what a user observes beyond the wire.

const OUTSIDE_JUSTIFICATION = 'Do you allow writing outside the workspace?'

/** A shell call that asks to run outside the sandbox, as Codex's prompt teaches the model to ask. */
const escalated = (cmd, prefixRule) => ({
  kind: 'shell',
  cmd,
  args: { sandbox_permissions: 'require_escalated', justification: OUTSIDE_JUSTIFICATION, prefix_rule: prefixRule },
})

async function openGuarded(s, ctx, policy) {
  s.step('initialize')
  await s.request('initialize', CLIENT)
  s.sendRaw('{"method":"initialized"}')
  s.step('thread/start')
  const started = await s.request('thread/start', { cwd: ctx.cwd, ...policy })
  await s.waitFor(notification('thread/started'))
  ctx.notes.started = [started.result.sandbox, started.result.approvalPolicy]
  return started.result.thread.id
}

/** A value with the run's folders named, so both sides compare. */
function local(ctx, value) {
  const text = JSON.stringify(value ?? null)
    .replaceAll(ctx.outside, '<outside>')
    .replaceAll(ctx.cwd, '<cwd>')
    .replaceAll(ctx.codexHome, '<codexHome>')
  return JSON.parse(text)
}

const readOnlyDenied = (text) => /Read-only file system/.test(text)
const exists = (path) => existsSync(path)

const serverRequests = (log) => log.filter((entry) => entry.kind === 'serverRequest')

/** `/bin/bash -lc '<script>'` → the shell and the script. */
function shellLine(command) {
  const line = /^(\S+ -l?c) (.*)$/s.exec(String(command))
  return line ? { shell: line[1], script: line[2] } : { shell: null, script: command }
}

/** The approval requests the client got, with the fields a user sees (the shell that runs the command apart). */
function approvals(ctx, log) {
  return serverRequests(log).map(({ method, message: { params } }) => {
    // A member Codex leaves out is not one it sends as null.
    const field = (key) => (key in params ? params[key] : '(absent)')
    return local(ctx, {
      method,
      kind: field('kind'),
      command: shellLine(params.command).script,
      cwd: field('cwd'),
      commandActions: field('commandActions'),
      reason: field('reason'),
      proposedExecpolicyAmendment: field('proposedExecpolicyAmendment'),
      availableDecisions: field('availableDecisions'),
    })
  })
}

/** The shell each approval request shows its command run by. */
const approvalShells = (log) => serverRequests(log).map(({ message: { params } }) => shellLine(params.command).shell)

/**
 * Each command item as it completed: its status and exit code; those of commands the sandbox denied apart (Codex
 * mostly sends none for them).
 */
function commands(log, sandboxDenied = false) {
  return log
    .filter(itemCompleted('commandExecution'))
    .filter(({ message: { params } }) => readOnlyDenied(params.item.aggregatedOutput ?? '') === sandboxDenied)
    .map(({ message: { params } }) => ({ status: params.item.status, exitCode: params.item.exitCode }))
}

/**
 * A refusal as the model reads it. Codex wraps it in its tool's error (`exec_command failed: CreateProcess { message:
 * "<Rust Debug string>" }`); the kernel's shell is another tool and hands over the text itself.
 */
function refusal(text) {
  const wrapped = /^exec_command failed: CreateProcess \{ message: (".*") \}$/s.exec(text)
  return wrapped ? JSON.parse(wrapped[1]) : text
}

/**
 * A command's result as the model reads it: its exit code and output. Codex's exec_command reports `Process exited
 * with code N` and `Output:` (stdout and stderr merged); the kernel's shell gives stdout, `[stderr]` and its stderr,
 * `[exit code: N]` when not 0, `[no output]` for none.
 */
function ran(ctx, text) {
  const codex = /Process exited with code (\d+)\n(?:.*\n)*?Output:\n(.*)$/s.exec(text)
  if (codex) return local(ctx, { exitCode: Number(codex[1]), output: codex[2].trim() })
  const exit = /\n?\[exit code: (\d+)\]$/.exec(text)
  const output = (exit ? text.slice(0, exit.index) : text).replace(/^\[stderr\]\n/m, '').replace(/^\[no output\]$/, '')
  return local(ctx, { exitCode: exit ? Number(exit[1]) : 0, output: output.trim() })
}

/** What the model was told of one call: the refusal's text, or the command's exit code and output. */
const told = (ctx, text) =>
  /rejected|AskForApproval|approval policy|policy forbids|blocked by policy/.test(text) ? { refused: refusal(text) } : ran(ctx, text)

/** What the user and the model observe of a turn's calls: the requests, the items, the model's texts. */
const observed = (ctx) => ({
  'thread/start: sandbox, approvalPolicy': ctx.notes.started,
  approvals: approvals(ctx, ctx.log),
  'approvals: the shell shown': approvalShells(ctx.log),
  commands: commands(ctx.log),
  'items of commands the sandbox denied': commands(ctx.log, true),
  told: ctx.outputs.map((text) => told(ctx, text)),
})

export const GUARDRAIL_SCENARIOS = [
  {
    name: 'guardrails-read-only-never',
    plan: [
      { kind: 'shell', cmd: 'cat /etc/passwd > /dev/null && echo read-ok' },
      { kind: 'shell', cmd: 'echo hi > made-here.txt' },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'read-only', approvalPolicy: 'never' })
      s.step('turn: a command that reads, then one that writes in cwd')
      await runTurn(s, threadId, 'read, then write a file')
    },
    facts: (ctx) => ({ ...observed(ctx), 'made-here.txt exists': exists(join(ctx.cwd, 'made-here.txt')) }),
  },
  {
    name: 'guardrails-workspace-write-never',
    plan: (ctx) => [
      { kind: 'shell', cmd: 'echo in > inside.txt' },
      { kind: 'shell', cmd: `echo out > ${ctx.outside}/outside.txt` },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'never' })
      s.step('turn: a write inside cwd, then one outside cwd and /tmp')
      await runTurn(s, threadId, 'write two files')
    },
    facts: (ctx) => ({
      ...observed(ctx),
      'inside.txt exists': exists(join(ctx.cwd, 'inside.txt')),
      'outside.txt exists': exists(join(ctx.outside, 'outside.txt')),
    }),
  },
  ...['decline', 'accept'].map((decision) => ({
    name: `guardrails-escalation-on-request-${decision}`,
    plan: (ctx) => [escalated(`touch ${ctx.outside}/escalated.txt`, ['touch']), { kind: 'text', text: 'done' }],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'on-request' })
      s.onApproval(() => decision)
      s.step(`turn: an escalation the client answers ${decision}`)
      await runTurn(s, threadId, 'write outside the workspace')
    },
    facts: (ctx) => ({ ...observed(ctx), 'escalated.txt exists': exists(join(ctx.outside, 'escalated.txt')) }),
  })),
  {
    name: 'guardrails-escalation-never',
    plan: (ctx) => [escalated(`touch ${ctx.outside}/escalated.txt`, ['touch']), { kind: 'text', text: 'done' }],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'never' })
      s.step('turn: an escalation under never')
      await runTurn(s, threadId, 'write outside the workspace')
    },
    facts: (ctx) => ({ ...observed(ctx), 'escalated.txt exists': exists(join(ctx.outside, 'escalated.txt')) }),
  },
  {
    name: 'guardrails-untrusted',
    plan: [
      { kind: 'shell', cmd: 'ls' },
      { kind: 'shell', cmd: 'touch declined.txt' },
      { kind: 'shell', cmd: 'touch accepted.txt' },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'untrusted' })
      s.onApproval((params) => (String(params.command).includes('declined') ? 'decline' : 'accept'))
      s.step('turn: ls, then two touches (declined, accepted)')
      await runTurn(s, threadId, 'look around and touch two files')
    },
    facts: (ctx) => ({
      ...observed(ctx),
      'declined.txt exists': exists(join(ctx.cwd, 'declined.txt')),
      'accepted.txt exists': exists(join(ctx.cwd, 'accepted.txt')),
    }),
  },
  {
    // An approved command the sandbox then denies: does it stay denied, or run again outside the sandbox?
    name: 'guardrails-untrusted-sandbox-denied',
    plan: (ctx) => [
      { kind: 'shell', cmd: `touch ${ctx.outside}/accepted.txt` },
      { kind: 'text', text: 'done' },
    ],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'untrusted' })
      s.onApproval(() => 'accept')
      s.step('turn: an accepted touch outside the workspace')
      await runTurn(s, threadId, 'touch a file outside')
    },
    facts: (ctx) => ({ ...observed(ctx), 'accepted.txt (outside) exists': exists(join(ctx.outside, 'accepted.txt')) }),
  },
  {
    name: 'guardrails-rule-forbidden',
    plan: [
      { kind: 'shell', cmd: 'git push origin main' },
      { kind: 'text', text: 'done' },
    ],
    setup: (ctx) => writeRules(ctx, 'prefix_rule(pattern=["git", "push"], decision="forbidden")\n'),
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'on-request' })
      s.step('turn: a command a forbidden rule matches')
      await runTurn(s, threadId, 'push')
    },
    facts: observed,
  },
  {
    name: 'guardrails-rule-prompt',
    // Outside the workspace: does a command a prompt rule matched run in the sandbox once approved?
    plan: (ctx) => [
      { kind: 'shell', cmd: `touch ${ctx.outside}/prompted.txt` },
      { kind: 'text', text: 'done' },
    ],
    setup: (ctx) => writeRules(ctx, 'prefix_rule(pattern=["touch"], decision="prompt", justification="touch needs a look")\n'),
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'on-request' })
      s.onApproval(() => 'accept')
      s.step('turn: a command a prompt rule matches, accepted')
      await runTurn(s, threadId, 'touch a file')
    },
    facts: (ctx) => ({
      ...observed(ctx),
      'prompted.txt (outside) exists': exists(join(ctx.outside, 'prompted.txt')),
    }),
  },
  {
    name: 'guardrails-turn-sandbox-policy',
    plan: [
      { kind: 'shell', cmd: 'echo one > one.txt' },
      { kind: 'text', text: 'wrote one' },
      { kind: 'shell', cmd: 'echo two > two.txt' },
      { kind: 'text', text: 'wrote two' },
    ],
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'never' })
      s.step('turn: a write under workspace-write')
      await runTurn(s, threadId, 'write one')
      s.step('turn/start with sandboxPolicy readOnly: a write')
      await s.request('turn/start', { threadId, input: text('write two'), sandboxPolicy: { type: 'readOnly' } })
      await s.waitFor(turnCompleted)
      s.step('thread/resume: the policy reported')
      const resumed = await s.request('thread/resume', { threadId })
      ctx.notes.resumed = resumed.result
    },
    facts: (ctx) => ({
      ...observed(ctx),
      'one.txt, two.txt exist': [exists(join(ctx.cwd, 'one.txt')), exists(join(ctx.cwd, 'two.txt'))],
      'thread/resume sandbox, approvalPolicy': [ctx.notes.resumed?.sandbox, ctx.notes.resumed?.approvalPolicy],
    }),
  },
  {
    name: 'guardrails-command-exec',
    plan: [{ kind: 'text', text: 'unused' }],
    async run(s, ctx) {
      s.step('initialize')
      await s.request('initialize', CLIENT)
      s.sendRaw('{"method":"initialized"}')
      const results = {}
      for (const [file, sandboxPolicy] of [
        ['read-only.txt', { type: 'readOnly' }],
        ['workspace.txt', { type: 'workspaceWrite' }],
        ['full-access.txt', { type: 'dangerFullAccess' }],
      ]) {
        s.step(`command/exec, sandboxPolicy ${sandboxPolicy.type}`)
        const answer = await s.request('command/exec', { command: ['sh', '-c', `echo x > ${file}`], cwd: ctx.cwd, sandboxPolicy })
        results[sandboxPolicy.type] = answer.result ?? answer.error
      }
      ctx.notes.results = results
    },
    facts: ({ cwd, notes }) => ({
      'exit codes': Object.fromEntries(Object.entries(notes.results ?? {}).map(([type, result]) => [type, result.exitCode])),
      'stderr: Read-only file system': Object.fromEntries(
        Object.entries(notes.results ?? {}).map(([type, result]) => [type, readOnlyDenied(result.stderr ?? '')]),
      ),
      'files exist': ['read-only.txt', 'workspace.txt', 'full-access.txt'].map((file) => exists(join(cwd, file))),
    }),
  },
  {
    name: 'guardrails-permission-request-hook',
    plan: (ctx) => [
      escalated(`touch ${ctx.outside}/hooked.txt`, ['touch']),
      { kind: 'text', text: 'declined' },
      escalated(`touch ${ctx.outside}/hooked.txt`, ['touch']),
      { kind: 'text', text: 'refused' },
    ],
    setup: (ctx) =>
      writeHook(
        ctx,
        'PermissionRequest',
        `cat >> ${join(ctx.codexHome, 'hook-stdin.log')}; echo >> ${join(ctx.codexHome, 'hook-stdin.log')}`,
      ),
    async run(s, ctx) {
      const threadId = await openGuarded(s, ctx, { sandbox: 'workspace-write', approvalPolicy: 'on-request' })
      s.step('turn: an escalation under on-request, declined')
      await runTurn(s, threadId, 'write outside the workspace')
      ctx.notes.afterOnRequest = hookRuns(ctx).length
      s.step('turn/start with approvalPolicy never: the same escalation')
      await s.request('turn/start', { threadId, input: text('again'), approvalPolicy: 'never' })
      await s.waitFor(turnCompleted)
    },
    facts: (ctx) => ({
      'hook runs after the on-request turn, after the never turn': [ctx.notes.afterOnRequest, hookRuns(ctx).length],
      'hook stdin': hookRuns(ctx).map((run) =>
        local(ctx, {
          keys: Object.keys(run).sort(),
          hook_event_name: run.hook_event_name,
          tool_name: run.tool_name,
          tool_input: run.tool_input,
          permission_mode: run.permission_mode,
        }),
      ),
      ...observed(ctx),
    }),
  },
]

function writeRules(ctx, rules) {
  mkdirSync(join(ctx.codexHome, 'rules'), { recursive: true })
  writeFileSync(join(ctx.codexHome, 'rules', 'default.rules'), rules)
}

/**
 * One trusted handler in `$CODEX_HOME/hooks.json`: trusted by its hash in config.toml (codex-hooks.md §2), which the
 * harness reads as Codex does. Returns the config.toml lines.
 */
function writeHook(ctx, event, command) {
  const source = join(ctx.codexHome, 'hooks.json')
  writeFileSync(source, JSON.stringify({ hooks: { [event]: [{ hooks: [{ type: 'command', command }] }] } }, null, 2))
  const label = event.replace(/[a-z][A-Z]/g, (pair) => `${pair[0]}_${pair[1]}`).toLowerCase()
  // Compact JSON, keys sorted: event_name, hooks (async, command, timeout, type).
  const identity = JSON.stringify({ event_name: label, hooks: [{ async: false, command, timeout: 600, type: 'command' }] })
  const hash = `sha256:${createHash('sha256').update(identity).digest('hex')}`
  return `\n[hooks.state."${source}:${label}:0:0"]\ntrusted_hash = "${hash}"\n`
}

function hookRuns(ctx) {
  const path = join(ctx.codexHome, 'hook-stdin.log')
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

export const SCENARIOS = [...BASE_SCENARIOS, ...GUARDRAIL_SCENARIOS]
