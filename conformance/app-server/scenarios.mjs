// The client script: each scenario runs unchanged against the real `codex app-server` and `harness app-server`,
// naming its steps; the suite compares what each server sent in each step.
import { notification } from './wire-client.mjs'

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

export const SCENARIOS = [
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
      s.step('thread/read with turns')
      await s.request('thread/read', { threadId, includeTurns: true })
      s.step('thread/loaded/list')
      await s.request('thread/loaded/list', {})
    },
  },
]
