import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { codexDriver, codexExecutable } from '@harness-kernel/driver-codex'
import { createKernel, type SessionEvent, type SteerOutcome, type SteerReceipt, useDriver } from '@harness-kernel/kernel'
import { startFakeOpenAI } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { exampleModel, isUserText, itemText, type ModelRequest, modelRequest, newInputItems, outputText } from './model-script.js'
import { describeRequest, narrator } from './narrator.js'
import { shellGuard } from './shell-guard.js'
import { steerWhileRunning } from './steer-while-running.js'

const keep = process.argv.includes('--keep')
const print = (line: string) => process.stdout.write(`${line}\n`)

const PROMPT = 'Build the project: run `sleep 1; echo build ok` and tell me how it went.'
const STEER = 'Also write one line of release notes.'
const DANGEROUS = 'Publish it: run `git push --force origin main`.'
/** The model Codex asks its provider for: one in Codex 0.169.0's own catalogue (else it warns of missing metadata). The fake answers any name. */
const MODEL = 'gpt-5.5'
/** The variable Codex reads its provider's key from (the driver's `provider.envKey`); the fake takes any key. */
const KEY_VAR = 'EXAMPLE_RESPONSES_API_KEY'

// A watchdog: the example never hangs a terminal or a test run (a Codex that never answers, say).
const watchdog = setTimeout(() => {
  print('\n✗ gave up after 90 s')
  process.exit(1)
}, 90_000)
watchdog.unref()

// Everything this run writes goes under one temporary directory: the workspace (the kernel's session log and the
// driver's state, Codex's CODEX_HOME included, are under workspace/.harness) and a HOME of its own for Codex.
const root = realpathSync(mkdtempSync(join(tmpdir(), 'harness-codex-driver-')))
const workspace = join(root, 'workspace')
const home = join(root, 'home')
mkdirSync(workspace)
mkdirSync(home)

let turnNumber = 0
const requests: { turn: number; request: ModelRequest }[] = []
const model = await startFakeOpenAI({
  script: exampleModel,
  onRequest(recorded) {
    const request = modelRequest(recorded)
    requests.push({ turn: turnNumber, request })
    print(describeRequest(request))
  },
})

let receipt: SteerReceipt | undefined
const kernel = createKernel(
  [
    // Codex's model provider is the fake server (written into the config.toml of the CODEX_HOME the driver makes for
    // the session, `codexHome: 'isolated'`, the default); its environment is ours with a HOME of its own and the key.
    useDriver(
      codexDriver({ model: MODEL, provider: { baseUrl: model.baseURL, envKey: KEY_VAR }, env: { HOME: home, [KEY_VAR]: 'dummy' } }),
    ),
    tools(),
    shellGuard(print),
    narrator(print),
    steerWhileRunning(STEER, (steered) => {
      receipt = steered
      print(`  ⇢ session.steer("${STEER}") while the command runs and Codex waits for the tool's answer: receipt ${steered.state()}`)
    }),
  ],
  { cwd: workspace },
)

print('harness-kernel × Codex: a steered turn inside the real Codex, offline')
print(`Codex: ${codexExecutable()} app-server`)
print(`fake Responses API: ${model.baseURL} (the driver's provider.baseUrl; key in ${KEY_VAR})`)
print(`workspace: ${workspace}`)
print(`Codex's HOME: ${home}`)

const checks: { ok: boolean; text: string }[] = []
const check = (ok: boolean, text: string) => checks.push({ ok, text })
let failed = false
try {
  const session = await kernel.startSession()

  turnNumber = 1
  const first = await session.run(PROMPT)
  const outcome = receipt
    ? await Promise.race([receipt, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5_000).unref())]).catch(
        (error: Error) => ({ state: `rejected: ${error.message}` }) as unknown as SteerOutcome,
      )
    : undefined
  print(`\nsession.run() returned once: ${first.status}; the last answer, which quotes what the model saw last:`)
  print(indent(first.lastAssistantMessage ?? ''))
  print(`steer receipt: ${outcome ? JSON.stringify(outcome) : 'none'}${receipt ? ` (state() = ${receipt.state()})` : ''}`)

  turnNumber = 2
  const second = await session.run(DANGEROUS)
  print(`\nsession.run() returned: ${second.status}; the last answer:`)
  print(indent(second.lastAssistantMessage ?? ''))

  const log = readFileSync(session.transcriptPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SessionEvent)
  await session.end()
  // Codex's own record of the session (its rollout, complete once session.end() closed the app server).
  const stateDir = join(workspace, '.harness', 'sessions', 'drivers', 'codex', session.id)
  const rollouts = listFiles(join(stateDir, 'codex-home', 'sessions')).filter((file) => file.endsWith('.jsonl'))
  const toolCalls = rollouts.flatMap(readJsonLines).flatMap((line) => {
    const item = (line as { payload?: { type?: string; item?: DynamicToolCall } }).payload
    return item?.type === 'item_completed' && item.item?.type === 'DynamicToolCall' ? [item.item] : []
  })

  // What happened, from four witnesses: the steer receipt, the model requests Codex sent, the kernel's log, Codex's rollout.
  print('\n── what happened ───────────────────────────────────────')
  const inTurn = (turn: number) => requests.filter((entry) => entry.turn === turn).map((entry) => entry.request)
  const [ask, answer, ...more] = inTurn(1)
  const callId = ask?.reply.kind === 'function_call' ? ask.reply.callId : undefined
  const folded = answer ? newInputItems(answer.input) : []
  const resultAt = folded.findIndex((item) => item.type === 'function_call_output' && item.call_id === callId)
  const steerAt = folded.findIndex((item) => isUserText(item) && itemText(item).includes(STEER))
  const turnStarts = log.filter((event) => event.type === 'turn/start')
  const steerMessage = log.find(
    (event) => event.type === 'message' && event.message.source.kind === 'steering' && event.message.content.some((b) => b.type === 'text'),
  )
  const accepted = log.find((event) => event.type === 'steering/accepted')
  const denied = log.find((event) => event.type === 'tool/call' && event.decision === 'deny')
  const [deniedAsk, deniedAnswer] = inTurn(2)
  const deniedId = deniedAsk?.reply.kind === 'function_call' ? deniedAsk.reply.callId : undefined
  const denial = deniedAnswer
    ? newInputItems(deniedAnswer.input).find((item) => item.type === 'function_call_output' && item.call_id === deniedId)
    : undefined
  const codexSaw = toolCalls.find((call) => call.id === deniedId)

  check(
    ask?.reply.kind === 'function_call' && ask.tools.includes('shell'),
    `the tool call: Codex offered the kernel's shell as a dynamic tool, its model called it; the kernel ran \`sleep 1; echo build ok\` (request #${ask?.n})`,
  )
  check(outcome?.state === 'recorded', `steer recorded: the receipt of session.steer() resolved ${JSON.stringify(outcome?.state)}`)
  check(
    resultAt >= 0 && steerAt === resultAt + 1,
    `folded after the tool result: model request #${answer?.n}'s new input is the function_call_output of ${callId}, then the steer as a user message`,
  )
  check(
    first.status === 'completed' && more.length === 0 && turnStarts.length === 2 && first.lastAssistantMessage?.includes(STEER) === true,
    `one turn, one result: turn 1 made ${inTurn(1).length} model requests and one session.run() result (${first.status}), whose answer quotes the steer`,
  )
  check(
    steerMessage?.type === 'message' &&
      steerMessage.turnId === first.turnId &&
      accepted?.type === 'steering/accepted' &&
      accepted.boundary === 'tool',
    `in the same turn: the steer's message and its steering/accepted (${accepted?.type === 'steering/accepted' ? accepted.boundary : 'no'} boundary) are in turn 1's log`,
  )
  check(
    denied !== undefined && second.status === 'completed',
    `the policy held: turn 2's \`git push --force origin main\` was denied at tools/pre-execute before it ran (turn ${second.status})`,
  )
  check(
    codexSaw?.success === false && denial !== undefined && outputText(denial).startsWith('Denied by shell-guard'),
    `the model saw the denial: Codex's rollout has ${deniedId} as a DynamicToolCall with success ${codexSaw?.success} (${codexSaw?.status}), and model request #${deniedAnswer?.n}'s function_call_output is the reason`,
  )
  for (const { ok, text } of checks) print(`${ok ? '✓' : '✗'} ${text}`)
  failed = checks.some((entry) => !entry.ok)

  print(`\nsession log: ${session.transcriptPath} (${log.length} events)`)
  print(`Codex's state (CODEX_HOME, isolated by the driver): ${stateDir}/codex-home`)
  for (const file of rollouts) print(`  its own rollout: ${file}`)
  print(`model requests: ${requests.length}`)
} catch (error) {
  failed = true
  print(`\n✗ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
} finally {
  await kernel.dispose()
  await model.close()
  print('fake Responses API closed')
  if (keep) print(`kept ${root} (--keep)`)
  else {
    rmSync(root, { recursive: true, force: true })
    print(`removed ${root} (run with --keep to keep it)`)
  }
}
print(failed ? '\n✗ the example did not go as described' : '\n✓ one steered turn inside the real Codex, as described')
process.exitCode = failed ? 1 : 0

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n')
}

/** A dynamic tool call as Codex records it in its rollout (`item_completed`). */
interface DynamicToolCall {
  type: string
  id: string
  status?: string
  success?: boolean
}

function readJsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown)
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
  } catch {
    return []
  }
}
