/**
 * Codex's sandbox and approval parameters (guardrails.md §1, §2; codex-app-server.md §6) on a server in this process:
 * real commands run by the shell tool inside the kernel's sandbox (bubblewrap), real files, the client's decisions.
 * Every message the server sends is checked against Codex 0.169.0's schema.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bwrapSandbox, createKernel, definePlugin, type Session, type SessionEvent } from '@harness-kernel/kernel'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createAppServerBridge } from '../src/bridge.js'
import { RpcError } from '../src/rpc-errors.js'
import { waitUntil } from './harness.js'
import { codexSchema } from './support/codex-schema.js'
import { type InProcessOptions, type InProcessServer, outsideDirectory, startInProcess } from './support/in-process-server.js'

const COMMAND_APPROVAL = 'item/commandExecution/requestApproval'
const FILE_CHANGE_APPROVAL = 'item/fileChange/requestApproval'
const REJECTED = 'Rejected("rejected by user")'
const NEVER = 'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never'
const PLAIN_DECISIONS = ['accept', 'acceptForSession', 'decline', 'cancel']
const WORKSPACE_WRITE = {
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess: false,
  excludeTmpdirEnvVar: false,
  excludeSlashTmp: false,
}
const READ_ONLY = { type: 'readOnly', networkAccess: false }

const outside = outsideDirectory()
afterAll(() => rmSync(outside, { recursive: true, force: true }))

const servers: InProcessServer[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(async (server) => {
      await server.close()
      rmSync(server.cwd, { recursive: true, force: true })
    }),
  )
  expect(codexSchema.take()).toEqual([])
})

async function start(steps: Parameters<typeof startInProcess>[0], options?: InProcessOptions): Promise<InProcessServer> {
  const server = await startInProcess(steps, options)
  servers.push(server)
  return server
}

type Step = Parameters<typeof startInProcess>[0][number]
const shell = (id: string, command: string, extra: Record<string, unknown> = {}): Step => ({
  tool_calls: [{ name: 'shell', id, input: { command, ...extra } }],
})
const writeFile = (id: string, path: string, content: string): Step => ({
  tool_calls: [{ name: 'write_file', id, input: { path, content } }],
})
const done: Step = { text: 'done' }

type ThreadAnswer = { thread: { id: string; path: string } } & Record<string, unknown>

/** The decisions, answered in order. */
const answering =
  (...decisions: unknown[]) =>
  () => {
    const next = decisions.shift()
    if (next instanceof Error) throw next
    return next
  }

const logEvents = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SessionEvent)

/** The order of what the client received around each approval request: status flags, the request, its resolution. */
function approvalTrail(server: InProcessServer, withItems = false): string[] {
  return server.client.received.flatMap((message) => {
    const params = message.params as Record<string, unknown> | undefined
    if (message.method === 'thread/status/changed') {
      const status = params?.status as { type: string; activeFlags?: string[] }
      if (status.activeFlags?.includes('waitingOnApproval')) return ['waiting']
      return withItems && status.activeFlags !== undefined ? ['not waiting'] : []
    }
    if (withItems && (message.method === 'item/started' || message.method === 'item/completed')) {
      const item = params?.item as { type: string; id: string; status: string }
      return item.type === 'commandExecution' ? [`${message.method} ${item.id} ${item.status}`] : []
    }
    if (message.method === COMMAND_APPROVAL || message.method === FILE_CHANGE_APPROVAL) return [`request ${String(message.id)}`]
    if (message.method === 'serverRequest/resolved') return [`resolved ${String(params?.requestId)}`]
    return []
  })
}

describe('thread/start sandbox (guardrails.md §1)', () => {
  it('read-only: a command cannot write in the workspace; the answer reports the expanded policy', async () => {
    const server = await start([shell('call_ro', 'touch made-here'), done])
    const started = await server.client.startThread({ sandbox: 'read-only' })
    expect(started).toMatchObject({ sandbox: READ_ONLY, approvalPolicy: 'on-request' })
    await server.turn(started.thread.id, 'go')
    expect(server.toolOutput('call_ro')).toContain('Read-only file system')
    expect(existsSync(join(server.cwd, 'made-here'))).toBe(false)
  })

  it('workspace-write: a command writes in the workspace, not outside it and /tmp', async () => {
    const target = join(outside, 'from-workspace-write')
    const server = await start([shell('call_in', 'touch made-here'), shell('call_out', `touch ${target}`), done])
    const started = await server.client.startThread({ sandbox: 'workspace-write' })
    expect(started).toMatchObject({ sandbox: WORKSPACE_WRITE, approvalPolicy: 'on-request' })
    await server.turn(started.thread.id, 'go')
    expect(existsSync(join(server.cwd, 'made-here'))).toBe(true)
    expect(server.toolOutput('call_out')).toContain('Read-only file system')
    expect(existsSync(target)).toBe(false)
  })

  it('danger-full-access writes anywhere; a granular policy (experimental API) is echoed with every category', async () => {
    const target = join(outside, 'from-full-access')
    const server = await start([shell('call_full', `touch ${target}`), done], { experimentalApi: true })
    const granular = { granular: { sandbox_approval: false, rules: true, mcp_elicitations: false } }
    const started = await server.client.startThread({ sandbox: 'danger-full-access', approvalPolicy: granular })
    expect(started).toMatchObject({
      sandbox: { type: 'dangerFullAccess' },
      approvalPolicy: {
        granular: { sandbox_approval: false, rules: true, skill_approval: false, request_permissions: false, mcp_elicitations: false },
      },
    })
    await server.turn(started.thread.id, 'go')
    expect(existsSync(target)).toBe(true)
  })

  it("a thread without sandbox or approvalPolicy runs under the server's defaultPolicy; workspace-write takes its roots", async () => {
    const server = await start(
      [shell('call_root', `touch ${join(outside, 'in-a-root')}`), done, shell('call_ro', 'touch read-only'), done],
      {
        defaultPolicy: {
          sandbox: {
            type: 'workspaceWrite',
            writableRoots: [outside],
            networkAccess: false,
            excludeTmpdirEnvVar: true,
            excludeSlashTmp: true,
          },
          approval: 'never',
        },
      },
    )
    const plain = await server.client.startThread()
    expect(plain).toMatchObject({
      sandbox: { ...WORKSPACE_WRITE, writableRoots: [outside], excludeTmpdirEnvVar: true, excludeSlashTmp: true },
      approvalPolicy: 'never',
    })
    await server.turn(plain.thread.id, 'go')
    expect(existsSync(join(outside, 'in-a-root'))).toBe(true)
    expect((await server.client.startThread({ sandbox: 'workspace-write' })).sandbox).toEqual(plain.sandbox)
    const readOnly = await server.client.startThread({ sandbox: 'read-only' })
    expect(readOnly).toMatchObject({ sandbox: READ_ONLY, approvalPolicy: 'never' })
    await server.turn(readOnly.thread.id, 'go')
    expect(server.toolOutput('call_ro')).toContain('Read-only file system')
  })
})

describe('turn/start sandboxPolicy and approvalPolicy', () => {
  it('apply to the turn and stick for the next ones; thread/resume and thread/fork report the policy in force', async () => {
    const server = await start([
      shell('call_1', 'touch first'),
      done,
      shell('call_2', 'touch second'),
      done,
      shell('call_3', 'touch third'),
      done,
    ])
    const { thread } = await server.client.startThread({ sandbox: 'workspace-write' })
    await server.turn(thread.id, 'one', { sandboxPolicy: { type: 'readOnly' } })
    expect(server.toolOutput('call_1')).toContain('Read-only file system')
    // As Codex 0.169.0 (App Server differential suite): the override is announced with the thread's settings.
    const settings = server.client.notifications.filter((entry) => entry.method === 'thread/settings/updated')
    expect(settings.map((entry) => entry.params)).toEqual([
      {
        threadId: thread.id,
        threadSettings: expect.objectContaining({ sandboxPolicy: READ_ONLY, approvalPolicy: 'on-request', cwd: server.cwd }),
      },
    ])
    await server.turn(thread.id, 'two')
    expect(server.client.notifications.filter((entry) => entry.method === 'thread/settings/updated')).toHaveLength(1)
    expect(server.toolOutput('call_2')).toContain('Read-only file system')
    expect([existsSync(join(server.cwd, 'first')), existsSync(join(server.cwd, 'second'))]).toEqual([false, false])
    const resumed = await server.client.request<ThreadAnswer>('thread/resume', { threadId: thread.id, excludeTurns: true })
    expect(resumed).toMatchObject({ sandbox: READ_ONLY, approvalPolicy: 'on-request' })

    await server.turn(thread.id, 'three', { sandboxPolicy: { type: 'workspaceWrite' }, approvalPolicy: 'never' })
    expect(existsSync(join(server.cwd, 'third'))).toBe(true)
    const forked = await server.client.request<ThreadAnswer>('thread/fork', { threadId: thread.id })
    expect(forked).toMatchObject({ sandbox: WORKSPACE_WRITE, approvalPolicy: 'on-request' })
    const overridden = await server.client.request<ThreadAnswer>('thread/fork', {
      threadId: thread.id,
      sandbox: 'danger-full-access',
      approvalPolicy: 'untrusted',
    })
    expect(overridden).toMatchObject({ sandbox: { type: 'dangerFullAccess' }, approvalPolicy: 'untrusted' })
    const again = await server.client.request<ThreadAnswer>('thread/resume', {
      threadId: thread.id,
      excludeTurns: true,
      sandbox: 'read-only',
    })
    expect(again).toMatchObject({ sandbox: READ_ONLY, approvalPolicy: 'never' })
  })

  it('given while a turn runs (the input is steered in), apply to that turn’s later calls', async () => {
    const server = await start([shell('call_first', 'until [ -e go ]; do sleep 0.02; done'), shell('call_later', 'touch later'), done], {
      onApproval: answering({ decision: 'decline' }),
    })
    const { thread } = await server.client.startThread({ sandbox: 'workspace-write' })
    const { turn } = await server.client.startTurn(thread.id, 'go')
    await server.client.waitFor('item/started', (params) => (params.item as { id: string }).id === 'call_first')
    const steered = await server.client.request<{ turn: { id: string } }>('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'and ask first', text_elements: [] }],
      approvalPolicy: 'untrusted',
    })
    expect(steered.turn.id).toBe(turn.id)
    writeFileSync(join(server.cwd, 'go'), '')
    await server.client.turnCompleted(thread.id, turn.id)
    expect(server.serverRequests(COMMAND_APPROVAL).map((request) => request.params.itemId)).toEqual(['call_later'])
    expect(server.toolOutput('call_later')).toBe(REJECTED)
    expect(existsSync(join(server.cwd, 'later'))).toBe(false)
  })
})

describe('approvals (§6, guardrails.md §2.4)', () => {
  it('untrusted asks before a command: accept runs it, decline tells the model and runs nothing', async () => {
    const server = await start([shell('call_a', 'touch accepted'), done, shell('call_d', 'touch declined'), done], {
      onApproval: answering({ decision: 'accept' }, { decision: 'decline' }),
    })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    const first = await server.turn(thread.id, 'one')
    expect(server.serverRequests(COMMAND_APPROVAL)[0]!.params).toEqual({
      kind: 'command',
      threadId: thread.id,
      turnId: first.id,
      itemId: 'call_a',
      startedAtMs: expect.any(Number),
      environmentId: 'local',
      // As Codex 0.169.0 asks on its own account: no reason, the command itself offered as a rule.
      command: "/bin/bash -c 'touch accepted'",
      cwd: server.cwd,
      commandActions: [{ type: 'unknown', command: 'touch accepted' }],
      proposedExecpolicyAmendment: ['touch', 'accepted'],
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'accepted'] } }, 'cancel'],
    })
    expect(existsSync(join(server.cwd, 'accepted'))).toBe(true)
    await server.turn(thread.id, 'two')
    expect(server.toolOutput('call_d')).toBe(REJECTED)
    expect(existsSync(join(server.cwd, 'declined'))).toBe(false)
    const declined = server.client.notifications.find(
      (entry) => entry.method === 'item/completed' && (entry.params.item as { id: string }).id === 'call_d',
    )
    expect(declined?.params.item).toMatchObject({ type: 'commandExecution', status: 'declined' })
    expect(server.serverRequests(COMMAND_APPROVAL)).toHaveLength(2)
    const ids = server.serverRequests(COMMAND_APPROVAL).map((request) => String(request.id))
    expect(approvalTrail(server)).toEqual(ids.flatMap((id) => ['waiting', `request ${id}`, `resolved ${id}`]))
    // Codex's order (App Server differential suite, Codex 0.169.0): the item starts before the request; a declined one
    // completes before the thread stops waiting, an accepted one runs after.
    expect(approvalTrail(server, true)).toEqual([
      'not waiting', // the turn starts
      'waiting',
      'item/started call_a inProgress',
      `request ${ids[0]}`,
      `resolved ${ids[0]}`,
      'not waiting',
      'item/completed call_a completed',
      'not waiting', // the second turn starts
      'waiting',
      'item/started call_d inProgress',
      `request ${ids[1]}`,
      `resolved ${ids[1]}`,
      'item/completed call_d declined',
      'not waiting',
    ])
  })

  it('acceptForSession: the same command later runs without asking', async () => {
    const server = await start([shell('call_1', 'touch again'), done, shell('call_2', 'touch again'), done], {
      onApproval: answering({ decision: 'acceptForSession' }),
    })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    await server.turn(thread.id, 'one')
    rmSync(join(server.cwd, 'again'))
    await server.turn(thread.id, 'two')
    expect(server.serverRequests(COMMAND_APPROVAL)).toHaveLength(1)
    expect(existsSync(join(server.cwd, 'again'))).toBe(true)
  })

  it('an escalation asks with the proposed rule and Codex’s decisions; accepted, it runs outside the sandbox', async () => {
    const escalated = join(outside, 'escalated')
    const byRule = join(outside, 'by-rule')
    const plain = join(outside, 'plain-accept')
    const amendments: string[][] = []
    const escalate = { sandbox_permissions: 'require_escalated', justification: 'need to write outside the workspace' }
    const server = await start(
      [
        shell('call_esc', `touch ${escalated}`, { ...escalate, prefix_rule: ['touch'] }),
        done,
        shell('call_rule', `touch ${byRule}`),
        done,
        shell('call_plain', `mkdir ${plain}`, escalate),
        done,
      ],
      {
        onApproval: answering({ decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } } }, { decision: 'accept' }),
        onRuleAmendment: (prefix) => {
          amendments.push(prefix)
        },
      },
    )
    const { thread } = await server.client.startThread({ sandbox: 'workspace-write', approvalPolicy: 'on-request' })
    await server.turn(thread.id, 'one')
    expect(server.serverRequests(COMMAND_APPROVAL)[0]!.params).toMatchObject({
      itemId: 'call_esc',
      reason: 'need to write outside the workspace',
      command: `/bin/bash -c 'touch ${escalated}'`,
      proposedExecpolicyAmendment: ['touch'],
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
    })
    expect(existsSync(escalated)).toBe(true)
    expect(amendments).toEqual([['touch']])
    // The amendment allows the prefix from now on: outside the sandbox, without asking.
    await server.turn(thread.id, 'two')
    expect(existsSync(byRule)).toBe(true)
    await server.turn(thread.id, 'three')
    expect(server.serverRequests(COMMAND_APPROVAL).map((request) => request.params.itemId)).toEqual(['call_esc', 'call_plain'])
    expect(server.serverRequests(COMMAND_APPROVAL)[1]!.params).toMatchObject({
      proposedExecpolicyAmendment: null,
      availableDecisions: PLAIN_DECISIONS,
    })
    expect(existsSync(plain)).toBe(true)
  })

  it('never: an escalation is refused without asking, in Codex’s words', async () => {
    const target = join(outside, 'never')
    const server = await start([
      shell('call_never', `touch ${target}`, { sandbox_permissions: 'require_escalated', justification: 'please' }),
      done,
    ])
    const { thread } = await server.client.startThread({ approvalPolicy: 'never' })
    await server.turn(thread.id, 'go')
    expect(server.serverRequests()).toEqual([])
    expect(server.toolOutput('call_never')).toContain(NEVER)
    expect(existsSync(target)).toBe(false)
    // Codex shows no item for a call its policy refused without asking (App Server differential suite, 5 runs).
    const items = server.client.notifications.filter((entry) => (entry.params.item as { id?: string } | undefined)?.id === 'call_never')
    expect(items).toEqual([])
    const resumed = (await server.client.request('thread/resume', { threadId: thread.id })) as {
      thread: { turns: { items: { id: string }[] }[] }
    }
    expect(resumed.thread.turns.flatMap((turn) => turn.items).some((item) => item.id === 'call_never')).toBe(false)
  })

  it('a write outside the workspace asks with item/fileChange/requestApproval', async () => {
    const accepted = join(outside, 'accepted.txt')
    const declined = join(outside, 'declined.txt')
    const server = await start([writeFile('call_w1', accepted, 'yes'), done, writeFile('call_w2', declined, 'no'), done], {
      onApproval: answering({ decision: 'accept' }, { decision: 'decline' }),
    })
    const { thread } = await server.client.startThread({ sandbox: 'workspace-write', approvalPolicy: 'on-request' })
    const first = await server.turn(thread.id, 'one')
    const [asked] = server.serverRequests()
    expect(asked).toMatchObject({ method: FILE_CHANGE_APPROVAL })
    expect(asked!.params).toEqual({
      threadId: thread.id,
      turnId: first.id,
      itemId: 'call_w1',
      startedAtMs: expect.any(Number),
      reason: expect.stringContaining(accepted),
      grantRoot: null,
    })
    expect(readFileSync(accepted, 'utf8')).toBe('yes')
    await server.turn(thread.id, 'two')
    expect(server.toolOutput('call_w2')).toBe(REJECTED)
    expect(existsSync(declined)).toBe(false)
    const ids = server.serverRequests().map((request) => String(request.id))
    expect(approvalTrail(server)).toEqual(ids.flatMap((id) => ['waiting', `request ${id}`, `resolved ${id}`]))
  })

  it('cancel refuses and ends the turn (interrupted, as Codex): the model is not asked again', async () => {
    const server = await start([shell('call_c', 'touch cancelled'), { text: 'not reached' }], {
      onApproval: answering({ decision: 'cancel' }),
    })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    const turn = await server.turn(thread.id, 'go')
    expect(turn.status).toBe('interrupted')
    expect(existsSync(join(server.cwd, 'cancelled'))).toBe(false)
    expect(server.toolOutput('call_c')).toBeUndefined()
  })

  it('fails closed: an error answer, an unknown or malformed decision, an amendment to a file change are refusals', async () => {
    const answers = [
      new RpcError(-32603, 'the host failed'),
      { decision: 'maybe' },
      { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } } },
      {},
    ]
    const steps = answers.flatMap((_, index) => [shell(`call_${index}`, `touch refused-${index}`), done])
    const server = await start([...steps, writeFile('call_file', 'inside.txt', 'x'), done], {
      onApproval: answering(...answers, { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['x'] } } }),
    })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    for (const index of answers.keys()) {
      await server.turn(thread.id, `try ${index}`)
      expect(server.toolOutput(`call_${index}`)).toBe(REJECTED)
      expect(existsSync(join(server.cwd, `refused-${index}`))).toBe(false)
    }
    // Under untrusted, Codex asks before every file change, in the workspace too.
    await server.turn(thread.id, 'write')
    expect(server.serverRequests().at(-1)?.method).toBe(FILE_CHANGE_APPROVAL)
    expect(server.toolOutput('call_file')).toBe(REJECTED)
    expect(existsSync(join(server.cwd, 'inside.txt'))).toBe(false)
  })

  it('a turn interrupted while a request is pending refuses it and resolves the request', async () => {
    const server = await start([shell('call_i', 'touch interrupted'), done], { onApproval: () => new Promise(() => {}) })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    const { turn } = await server.client.startTurn(thread.id, 'go')
    await waitUntil(() => server.serverRequests(COMMAND_APPROVAL).length === 1, 'the approval request')
    await server.client.interrupt(thread.id, turn.id)
    expect((await server.client.turnCompleted(thread.id, turn.id)).turn.status).toBe('interrupted')
    const [asked] = server.serverRequests(COMMAND_APPROVAL)
    expect(
      server.client.notifications.some((entry) => entry.method === 'serverRequest/resolved' && entry.params.requestId === asked!.id),
    ).toBe(true)
    expect(existsSync(join(server.cwd, 'interrupted'))).toBe(false)
  })

  it('a client that disconnects while a request is pending: refused, the turn ends, nothing runs', async () => {
    const server = await start([shell('call_gone', 'touch after-disconnect'), done], { onApproval: () => new Promise(() => {}) })
    const { thread } = await server.client.startThread({ approvalPolicy: 'untrusted' })
    await server.client.startTurn(thread.id, 'go')
    await waitUntil(() => server.serverRequests(COMMAND_APPROVAL).length === 1, 'the approval request')
    await server.close()
    const events = logEvents(thread.path)
    expect(events.find((event) => event.type === 'tool/call')).toMatchObject({ callId: 'call_gone', decision: 'deny' })
    expect(events.find((event) => event.type === 'turn/end')).toMatchObject({ status: 'interrupted' })
    expect(existsSync(join(server.cwd, 'after-disconnect'))).toBe(false)
  })

  it('a session that is no thread of the server has nobody to ask: refused', async () => {
    const bridge = createAppServerBridge()
    const kernel = createKernel([bridge.plugin], { cwd: outside })
    await kernel.ready
    const decision = await kernel.resolve('approvals').request({
      session: { id: 'not-a-thread' } as Session,
      turnId: 'turn',
      call: { id: 'call', name: 'shell', input: { command: 'touch x' } },
      reason: undefined,
      signal: new AbortController().signal,
    })
    expect(decision).toEqual({ kind: 'deny', reason: 'The call to shell needs approval, and no host is connected.' })
    await kernel.dispose()
  })
})

describe('bad sandbox and approval params, in Codex’s words (observed)', () => {
  it('refuses unknown variants, wrong types, relative roots, externalSandbox, and granular without the experimental API', async () => {
    const server = await start([])
    const refusal = (method: string, params: unknown) =>
      server.client.request(method, params).then(
        () => 'answered',
        (error: RpcError) => `${error.code} ${error.message}`,
      )
    const approvals = 'expected one of `untrusted`, `on-request`, `granular`, `never`'
    expect(await refusal('thread/start', { approvalPolicy: 'on-failure' })).toBe(
      `-32600 Invalid request: unknown variant \`on-failure\`, ${approvals}`,
    )
    expect(await refusal('thread/start', { approvalPolicy: { bogus: {} } })).toBe(
      `-32600 Invalid request: unknown variant \`bogus\`, ${approvals}`,
    )
    expect(await refusal('thread/start', { approvalPolicy: 5 })).toBe(
      '-32600 Invalid request: invalid type: integer `5`, expected string or map',
    )
    expect(await refusal('thread/start', { approvalPolicy: {} })).toBe(
      '-32600 Invalid request: invalid value: map, expected map with a single key',
    )
    expect(await refusal('thread/start', { approvalPolicy: { granular: { rules: true } } })).toBe(
      '-32600 Invalid request: missing field `sandbox_approval`',
    )
    expect(
      await refusal('thread/start', { approvalPolicy: { granular: { rules: true, sandbox_approval: true, mcp_elicitations: 'x' } } }),
    ).toBe('-32600 Invalid request: invalid type: string "x", expected a boolean')
    expect(
      await refusal('thread/start', { approvalPolicy: { granular: { rules: true, sandbox_approval: true, mcp_elicitations: true } } }),
    ).toBe('-32600 askForApproval.granular requires experimentalApi capability')
    const modes = 'expected one of `read-only`, `workspace-write`, `danger-full-access`'
    expect(await refusal('thread/start', { sandbox: 'bogus' })).toBe(`-32600 Invalid request: unknown variant \`bogus\`, ${modes}`)
    expect(await refusal('thread/start', { sandbox: 5 })).toBe('-32600 Invalid request: invalid type: integer `5`, expected string or map')
    expect(await refusal('thread/resume', { threadId: 'x', sandbox: 'bogus' })).toBe(
      `-32600 Invalid request: unknown variant \`bogus\`, ${modes}`,
    )
    expect(await refusal('thread/fork', { threadId: 'x', approvalPolicy: 'on-failure' })).toBe(
      `-32600 Invalid request: unknown variant \`on-failure\`, ${approvals}`,
    )

    const { thread } = await server.client.startThread({ sandbox: 'read-only' })
    const turn = (extra: Record<string, unknown>) =>
      refusal('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'x', text_elements: [] }], ...extra })
    expect(await turn({ sandboxPolicy: { type: 'bogus' } })).toBe(
      '-32600 Invalid request: unknown variant `bogus`, expected one of `dangerFullAccess`, `readOnly`, `externalSandbox`, `workspaceWrite`',
    )
    expect(await turn({ sandboxPolicy: {} })).toBe('-32600 Invalid request: missing field `type`')
    expect(await turn({ sandboxPolicy: 'readOnly' })).toBe(
      '-32600 Invalid request: invalid type: string "readOnly", expected internally tagged enum SandboxPolicyDeserialize',
    )
    expect(await turn({ sandboxPolicy: { type: 'workspaceWrite', writableRoots: 5 } })).toBe(
      '-32600 Invalid request: invalid type: integer `5`, expected a sequence',
    )
    expect(await turn({ sandboxPolicy: { type: 'workspaceWrite', writableRoots: [5] } })).toBe(
      '-32600 Invalid request: invalid type: integer `5`, expected path string',
    )
    expect(await turn({ sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['relative'] } })).toBe(
      '-32600 Invalid request: AbsolutePathBuf deserialized without a base path',
    )
    expect(await turn({ sandboxPolicy: { type: 'readOnly', networkAccess: null } })).toBe(
      '-32600 Invalid request: invalid type: null, expected a boolean',
    )
    expect(await turn({ sandboxPolicy: { type: 'externalSandbox' } })).toMatch(
      /^-32600 sandboxPolicy `externalSandbox` is not supported by this server/,
    )
    expect(await turn({ approvalPolicy: 'on-failure' })).toBe(`-32600 Invalid request: unknown variant \`on-failure\`, ${approvals}`)
    // Nothing refused changed the thread's policy.
    const resumed = await server.client.request<ThreadAnswer>('thread/resume', { threadId: thread.id, excludeTurns: true })
    expect(resumed).toMatchObject({ sandbox: READ_ONLY, approvalPolicy: 'on-request' })
  })
})

describe('command/exec sandboxPolicy', () => {
  it('runs the command in the sandbox the policy describes; default: the server’s default policy', async () => {
    const server = await start([], { defaultPolicy: { sandbox: { type: 'readOnly', networkAccess: false }, approval: 'on-request' } })
    const exec = (command: string[], extra: Record<string, unknown> = {}) =>
      server.client.request<{ exitCode: number; stderr: string }>('command/exec', { command, cwd: server.cwd, ...extra })
    expect(await exec(['touch', 'read-only'], { sandboxPolicy: { type: 'readOnly' } })).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('Read-only file system'),
    })
    expect(await exec(['touch', 'by-default'])).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('Read-only file system') })
    expect(await exec(['touch', 'workspace'], { sandboxPolicy: { type: 'workspaceWrite' } })).toMatchObject({ exitCode: 0 })
    expect(await exec(['touch', join(outside, 'exec-ws')], { sandboxPolicy: { type: 'workspaceWrite' } })).toMatchObject({ exitCode: 1 })
    expect(await exec(['touch', join(outside, 'exec-full')], { sandboxPolicy: { type: 'dangerFullAccess' } })).toMatchObject({
      exitCode: 0,
    })
    expect(
      ['read-only', 'by-default', 'workspace']
        .map((name) => existsSync(join(server.cwd, name)))
        .concat(['exec-ws', 'exec-full'].map((name) => existsSync(join(outside, name)))),
    ).toEqual([false, false, true, false, true])
    await expect(exec(['true'], { sandboxPolicy: { type: 'externalSandbox', networkAccess: 'enabled' } })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^command\/exec sandboxPolicy `externalSandbox` is not supported by this server/),
    })
    await expect(exec(['true'], { sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['rel'] } })).rejects.toMatchObject({
      code: -32600,
      message: 'Invalid request: AbsolutePathBuf deserialized without a base path',
    })
  })

  it('where the sandbox cannot run, nothing runs: the error names the cause', async () => {
    const unavailable = bwrapSandbox({ bwrap: '/nonexistent/bwrap' })
    const reason = unavailable.unavailable()
    expect(reason).toContain('/nonexistent/bwrap')
    const server = await start([], {
      plugins: [definePlugin({ name: 'no-sandbox', setup: (kernel) => kernel.provide('sandbox', unavailable) })],
    })
    await expect(server.client.request('command/exec', { command: ['touch', 'never-made'], cwd: server.cwd })).rejects.toMatchObject({
      code: -32603,
      message: `failed to spawn command: ${reason}`,
    })
    expect(existsSync(join(server.cwd, 'never-made'))).toBe(false)
  })
})
