import { readFileSync } from 'node:fs'
import { type SessionEvent, textOf } from '@harness-kernel/kernel'
import { newInput, type RecordedRequest } from '@harness-kernel/testing'
import { ompSteering } from '@harness-kernel/transport-omp'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeOmpAgent } from '../../../../transports/omp/test/fake-omp.js'
import { steeringTool, texts } from '../../../../transports/omp/test/helpers.js'
import { type CodexHarness, callDirective, codexHarness, readLog } from '../support/driver-harness.js'

// Observed against Codex 0.169.0 (`codex app-server`).
let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const parse = (text: string): SessionEvent[] =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

describe('ompSteering on the Codex driver', () => {
  it('a message queued in OMP while a kernel tool runs joins the same turn after the tool output; OMP’s accept once, after the log', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    let transcript = ''
    let logAtAccept = ''
    agent.onAccepted = () => {
      logAtAccept = readFileSync(transcript, 'utf8')
    }
    // The `work` tool queues the user's message in OMP while it runs (as OMP's steer mode would).
    current = await codexHarness({ plugins: [omp, steeringTool(() => agent)] })
    const session = await current.kernel.startSession()
    transcript = session.transcriptPath
    const result = await session.run(`Go ${callDirective('work', { say: ['please also add tests'] })}`)

    expect(result.status).toBe('completed')
    expect(result.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    expect(current.server.requests).toHaveLength(2)
    expect(newInput(current.server.requests[1] as RecordedRequest)).toEqual(['output:worked', 'user:please also add tests'])

    // OMP: accepted exactly once, and the message is never fed again.
    expect(call.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['please also add tests'])
    expect(agent.queue).toEqual([])

    const steered = session.messages.filter((message) => message.source?.kind === 'steering')
    expect(steered.map((message) => textOf(message))).toEqual(['please also add tests'])
    expect(steered[0]!.source).toEqual({ kind: 'steering', transport: 'omp' })
    const roles = session.messages.map((message) => message.role)
    expect(roles.indexOf('tool')).toBeLessThan(session.messages.indexOf(steered[0]!))

    // Recorded (Codex's userMessage receipt) before OMP's accept.
    const atAccept = parse(logAtAccept)
    const message = atAccept.find((event) => event.type === 'message' && event.message.source?.kind === 'steering')
    const accepted = atAccept.find((event) => event.type === 'steering/accepted')
    expect(message).toBeDefined()
    expect(accepted).toMatchObject({ transport: 'omp', droppedIds: [] })
    if (message?.type !== 'message' || accepted?.type !== 'steering/accepted') throw new Error('unreachable')
    expect(accepted.itemIds).toEqual([message.message.meta?.steeringItemId])
    expect(accepted.seq).toBeGreaterThan(message.seq)
    expect(readLog(session.transcriptPath).filter((event) => event.type === 'turn/start')).toHaveLength(1)
    await session.end()
  })

  it('a message queued in OMP between turns joins the next turn’s prompt, accepted once', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    current = await codexHarness({ plugins: [omp] })
    const session = await current.kernel.startSession()
    expect((await session.run('just answer')).status).toBe('completed')
    expect(call.settlements).toEqual([])

    agent.push('one more thing')
    const before = current.server.requests.length
    const second = await session.run('and now')
    expect(second.status).toBe('completed')
    expect(call.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['one more thing'])
    expect(newInput(current.server.requests[before] as RecordedRequest)).toEqual(['user:and now', 'user:one more thing'])
    expect(session.messages.filter((message) => message.source?.kind === 'steering').map((message) => textOf(message))).toEqual([
      'one more thing',
    ])
    await session.end()
  })
})
