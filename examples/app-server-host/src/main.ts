import { appendFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { HostInputHandler, HostInputItem, Notification } from '@harness-kernel/app-server'
import { HostLedger } from './host-ledger.js'
import { spawnAppServer } from './spawn-server.js'
import { describeNotification } from './wire-printer.js'

const script = fileURLToPath(new URL('../script.yaml', import.meta.url))
const keep = process.argv.includes('--keep')
// `--wire FILE`: every message received, as JSON lines `{message, answering}` (`answering`: the method a response answers).
const wireAt = process.argv.indexOf('--wire')
const wire = wireAt > 0 ? process.argv[wireAt + 1] : undefined
const print = (line: string) => process.stdout.write(`${line}\n`)
const text = (value: string) => [{ type: 'text' as const, text: value, text_elements: [] }]

// What this host will send, each with a clientId so it can tell what became of it.
const TASK = { clientId: 'host-task', text: 'Build the project and tell me how it went.' }
const STEER = { clientId: 'host-steer', text: 'Also write one line of release notes.' }
const SAMPLING_ITEM: HostInputItem = {
  role: 'user',
  authority: 'user',
  content: text('And check the build for warnings.'),
  clientId: 'host-sampling',
}
// role 'user' (authority 'host': the host's own words): a final-boundary item with role 'developer' is recorded but,
// in this kernel version, does not count as new input, so the turn would end without sampling it (see README.md).
const FINAL_ITEM: HostInputItem = {
  role: 'user',
  authority: 'host',
  content: text('Host check: confirm the workspace is clean before you finish.'),
  clientId: 'host-final',
}

const ledger = new HostLedger()
const turnLabels = new Map<string, string>()
const turnLabel = (turnId: unknown) => {
  const id = String(turnId)
  if (!turnLabels.has(id)) turnLabels.set(id, `turn ${turnLabels.size + 1}`)
  return turnLabels.get(id)!
}
const describeItems = (items: HostInputItem[]) =>
  items.length === 0
    ? 'no items'
    : items
        .map(
          (item) =>
            `(role ${item.role}, authority ${item.authority}) [clientId ${item.clientId}]: ${item.content.map((part) => ('text' in part ? part.text : '')).join('')}`,
        )
        .join('; ')

// Host input at sampling boundaries (codex-app-server.md §10): one item at the first sampling boundary, one at the
// first final boundary (so the same turn goes on), then nothing, which lets the turn complete.
const answered = { sampling: false, final: false, tool: false }
const onHostInput: HostInputHandler = ({ turnId, boundary }, requestId) => {
  const items = answered[boundary.kind] ? [] : [boundary.kind === 'final' ? FINAL_ITEM : SAMPLING_ITEM]
  answered[boundary.kind] = true
  print(`  ⇠ turn/hostInput/request #${requestId}: ${boundary.kind} boundary, step ${boundary.step} of ${turnLabel(turnId)}`)
  print(`  → answer #${requestId}: ${describeItems(items)}`)
  for (const item of items) {
    ledger.add({ clientId: item.clientId!, via: 'turn/hostInput/request', text: describeItems([item]), requestId })
  }
  return { items }
}

const server = spawnAppServer(script, {
  onHostInput,
  ...(wire ? { onReceive: (message, answering) => appendFileSync(wire, `${JSON.stringify({ message, answering })}\n`) } : {}),
})
const { client } = server
client.on('notification', (notification: Notification) => {
  const line = describeNotification(notification, turnLabel)
  if (line) print(line)
})

print('harness-kernel app-server host: spawns `harness app-server`, steers a running turn, answers host-input requests')
print(`server: ${server.commandLine}`)
print(`workspace: ${server.workspace} (CODEX_HOME and HARNESS_HOME are temporary too)`)

let failed = false
try {
  const init = await client.initialize({
    name: 'app-server-host-example',
    hostInput: { boundaries: ['sampling', 'final'], timeoutMs: 5_000 },
  })
  print(`\n→ initialize with capabilities.hostInput`)
  print(`  ← hostInput negotiated: ${JSON.stringify(init.hostInput)}`)
  if (!init.hostInput) throw new Error('the server did not negotiate hostInput')

  const { thread } = await client.startThread({ cwd: server.workspace })
  print(`\n→ thread/start`)
  print(`  ← thread ${thread.id}`)

  print(`\n→ turn/start [clientId ${TASK.clientId}]: ${TASK.text}`)
  ledger.add({ clientId: TASK.clientId, via: 'turn/start', text: TASK.text })
  const commandStarted = client.waitFor('item/started', (params) => (params.item as { type: string }).type === 'commandExecution')
  const { turn } = await client.startTurn(thread.id, TASK.text, TASK.clientId)
  const completed = client.turnCompleted(thread.id, turn.id)

  // While the shell command runs, steer the running turn; expectedTurnId guards against steering the wrong turn (§9).
  await commandStarted
  print(`  → turn/steer (expectedTurnId = ${turnLabel(turn.id)}) [clientId ${STEER.clientId}]: ${STEER.text}`)
  ledger.add({ clientId: STEER.clientId, via: 'turn/steer', text: STEER.text })
  try {
    const { turnId } = await client.steer(thread.id, turn.id, STEER.text, STEER.clientId)
    print(`  ← turn/steer accepted for ${turnLabel(turnId)} (provisional until its userMessage item arrives)`)
  } catch (error) {
    // The host still owns the input (no active turn, another turn): it would send it with turn/start later.
    const message = error instanceof Error ? error.message : String(error)
    ledger.refuse(STEER.clientId, message)
    print(`  ← turn/steer refused: ${message}`)
  }

  const { turn: ended } = await completed
  const outcomes = ledger.outcomes(client.notifications)
  const turnsStarted = client.notifications.filter((entry) => entry.method === 'turn/started').length
  const requests = client.received.filter((message) => message.method === 'turn/hostInput/request').length
  const last = ended.items.findLast((item) => item.type === 'agentMessage')

  print('\nsummary')
  print(`  ${turnLabel(ended.id)}: ${ended.status}; ${turnsStarted} turn/started; ${requests} turn/hostInput/request answered`)
  if (last) print(`  last answer: ${String(last.text)}`)
  for (const outcome of outcomes) {
    const where = outcome.recordedIn.map(turnLabel).join(', ')
    const fate =
      outcome.recordedIn.length > 0
        ? `recorded ${outcome.recordedIn.length === 1 ? 'once' : `${outcome.recordedIn.length} times`} in ${where}`
        : outcome.reportedBack.length > 0
          ? `reported back: ${outcome.reportedBack.join(', ')}`
          : 'neither recorded nor reported back'
    const via = outcome.requestId === undefined ? outcome.via : `${outcome.via} #${outcome.requestId}`
    print(`  ${outcome.ok ? '✓' : '✗'} ${outcome.clientId} via ${via}: ${fate}`)
  }
  const steer = outcomes.find((outcome) => outcome.clientId === STEER.clientId)
  if (steer?.recordedIn.length === 1) {
    print(
      `  the steer was recorded in ${steer.recordedIn[0] === turn.id ? 'the same turn it steered' : `another turn (${turnLabel(steer.recordedIn[0])})`}`,
    )
  }
  // The final-boundary item must continue the same turn: another model answer after it, no second turn/started.
  const finalAt = client.notifications.findIndex(
    ({ method, params }) => method === 'item/completed' && (params.item as { clientId?: unknown }).clientId === FINAL_ITEM.clientId,
  )
  const continued =
    finalAt >= 0 &&
    client.notifications
      .slice(finalAt)
      .some(
        ({ method, params }) =>
          method === 'item/completed' && params.turnId === turn.id && (params.item as { type: string }).type === 'agentMessage',
      )
  print(
    `  the final-boundary item ${continued ? 'continued the same turn: the model answered once more before turn/completed' : 'did not continue the turn'}`,
  )
  const lost = outcomes.filter((outcome) => !outcome.ok)
  const recorded = outcomes.filter((outcome) => outcome.ok && outcome.recordedIn.length === 1).length
  if (lost.length === 0) {
    print(
      `  all ${outcomes.length} host items accounted for: ${recorded} recorded exactly once, ${outcomes.length - recorded} reported back`,
    )
  } else {
    print(
      `  ${lost.length} of ${outcomes.length} host items were lost or duplicated: ${lost.map((outcome) => outcome.clientId).join(', ')}`,
    )
  }
  failed = lost.length > 0 || ended.status !== 'completed' || turnsStarted !== 1 || !continued
} catch (error) {
  failed = true
  print(`\nerror: ${error instanceof Error ? error.message : String(error)}`)
  if (client.stderr) print(`server stderr:\n${client.stderr.trimEnd()}`)
} finally {
  const code = await client.close()
  print(`server exited with code ${code}`)
  if (keep) print(`kept ${server.root}`)
  else server.cleanUp()
}
process.exitCode = failed ? 1 : 0
