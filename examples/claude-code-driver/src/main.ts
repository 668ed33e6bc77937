import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeDriver, claudeExecutable } from '@harness-kernel/driver-claude-code'
import { createKernel, type SessionEvent, type SteerOutcome, type SteerReceipt, useDriver } from '@harness-kernel/kernel'
import { startFakeAnthropic } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { exampleModel, type ModelRequest, modelRequest, trailingUserBlocks, userText } from './model-script.js'
import { describeRequest, narrator } from './narrator.js'
import { shellGuard } from './shell-guard.js'
import { steerWhileParked } from './steer-while-parked.js'

const keep = process.argv.includes('--keep')
const print = (line: string) => process.stdout.write(`${line}\n`)

const PROMPT = 'Build the project: run `sleep 1; echo build ok` and tell me how it went.'
const STEER = 'Also write one line of release notes.'
const DANGEROUS = 'Publish it: run `git push --force origin main`.'

// A watchdog: the example never hangs a terminal or a test run (a Claude Code that never answers, say).
const watchdog = setTimeout(() => {
  print('\n✗ gave up after 90 s')
  process.exit(1)
}, 90_000)
watchdog.unref()

// Everything this run writes goes under one temporary directory: the workspace (the kernel's session log and the
// driver's state, Claude Code's config dir included, are under workspace/.harness) and a HOME of its own for Claude Code.
const root = realpathSync(mkdtempSync(join(tmpdir(), 'harness-claude-code-driver-')))
const workspace = join(root, 'workspace')
const home = join(root, 'home')
mkdirSync(workspace)
mkdirSync(home)

let turnNumber = 0
const requests: { turn: number; request: ModelRequest }[] = []
const model = await startFakeAnthropic({
  script: exampleModel,
  onRequest(recorded) {
    const request = modelRequest(recorded)
    requests.push({ turn: turnNumber, request })
    if (request.main) print(describeRequest(request))
  },
})

// Claude Code's environment: ours, with its endpoint, a dummy key and no traffic beyond the fake model. The driver puts
// CLAUDE_CONFIG_DIR in a folder of the session's own (`configDir: 'isolated'`, the default).
const env = {
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_API_KEY: 'sk-ant-example-not-a-real-key',
  ANTHROPIC_AUTH_TOKEN: undefined,
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  HOME: home,
}

let receipt: SteerReceipt | undefined
const kernel = createKernel(
  [
    useDriver(claudeCodeDriver({ env })),
    tools(),
    shellGuard(print),
    narrator(print),
    steerWhileParked(STEER, (steered) => {
      receipt = steered
      print(`  ⇢ session.steer("${STEER}") while the command runs, parked inside Claude Code's MCP call: receipt ${steered.state()}`)
    }),
  ],
  { cwd: workspace },
)

print('harness-kernel × Claude Code: a steered turn inside the real Claude Code, offline')
print(`Claude Code: ${claudeExecutable()}`)
print(`fake Messages API: ${model.url} (ANTHROPIC_BASE_URL)`)
print(`workspace: ${workspace}`)
print(`Claude Code's HOME: ${home}`)

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

  // What happened, from the three witnesses: the steer receipt, the model requests Claude Code sent, the kernel's log.
  print('\n── what happened ───────────────────────────────────────')
  const inTurn = (turn: number) => requests.filter((entry) => entry.turn === turn && entry.request.main).map((entry) => entry.request)
  const [ask, answer, ...more] = inTurn(1)
  const toolUseId = ask?.reply.kind === 'tool_use' ? ask.reply.id : undefined
  const folded = answer ? trailingUserBlocks(answer.messages) : []
  const resultAt = folded.findIndex((block) => block.type === 'tool_result' && block.tool_use_id === toolUseId)
  const steerAt = folded.findIndex((block) => block.type === 'text' && userText(block).includes(STEER))
  const turnStarts = log.filter((event) => event.type === 'turn/start')
  const steerMessage = log.find(
    (event) => event.type === 'message' && event.message.source.kind === 'steering' && event.message.content.some((b) => b.type === 'text'),
  )
  const accepted = log.find((event) => event.type === 'steering/accepted')
  const denied = log.find((event) => event.type === 'tool/call' && event.decision === 'deny')

  check(
    ask?.reply.kind === 'tool_use',
    `the tool call: Claude Code's model asked for mcp__host__shell; the kernel ran \`sleep 1; echo build ok\` (request #${ask?.n})`,
  )
  check(outcome?.state === 'recorded', `steer recorded: the receipt of session.steer() resolved ${JSON.stringify(outcome?.state)}`)
  check(
    resultAt >= 0 && steerAt > resultAt,
    `folded after the tool result: model request #${answer?.n} carries the tool_result of ${toolUseId}, then the steer as user text`,
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
  for (const { ok, text } of checks) print(`${ok ? '✓' : '✗'} ${text}`)
  failed = checks.some((entry) => !entry.ok)

  const stateDir = join(workspace, '.harness', 'sessions', 'drivers', 'claude-code', session.id)
  const side = requests.filter((entry) => !entry.request.main).length
  print(`\nsession log: ${session.transcriptPath} (${log.length} events)`)
  print(`Claude Code's state (CLAUDE_CONFIG_DIR, isolated by the driver): ${stateDir}/config`)
  const transcripts = listFiles(join(stateDir, 'config', 'projects')).filter((file) => file.endsWith('.jsonl'))
  for (const file of transcripts) print(`  its own transcript: ${file}`)
  print(`model requests: ${requests.length - side} main-loop, ${side} side`)
} catch (error) {
  failed = true
  print(`\n✗ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
} finally {
  await kernel.dispose()
  await model.close()
  print('fake Messages API closed')
  if (keep) print(`kept ${root} (--keep)`)
  else {
    rmSync(root, { recursive: true, force: true })
    print(`removed ${root} (run with --keep to keep it)`)
  }
}
print(failed ? '\n✗ the example did not go as described' : '\n✓ one steered turn inside the real Claude Code, as described')
process.exitCode = failed ? 1 : 0

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n')
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
