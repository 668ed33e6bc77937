import { readFileSync } from 'node:fs'
import { type SessionEvent, textOf } from '@harness-kernel/kernel'
import { lastUserMessage, mainRequests, newInput } from '@harness-kernel/testing'
import { ompSteering } from '@harness-kernel/transport-omp'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeOmpAgent } from '../../../../transports/omp/test/fake-omp.js'
import { steeringTool, texts } from '../../../../transports/omp/test/helpers.js'
import { type DriverHarness, driverHarness, readLog, toolDirective } from '../support/driver-harness.js'

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const parse = (text: string): SessionEvent[] =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

describe('ompSteering on the Claude Code driver', () => {
  it('a message queued in OMP while a kernel tool call is parked joins the same turn after the tool result; OMP’s accept once', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    let transcript = ''
    let logAtAccept = ''
    agent.onAccepted = () => {
      logAtAccept = readFileSync(transcript, 'utf8')
    }
    // The `work` tool queues the user's message in OMP while it runs (as OMP's steer mode would).
    current = await driverHarness({ plugins: [omp, steeringTool(() => agent)] })
    const session = await current.kernel.startSession()
    transcript = session.transcriptPath
    const result = await session.run(`Go ${toolDirective('work', { say: ['please also add tests'] })}`)

    expect(result.status).toBe('completed')
    expect(result.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    const main = mainRequests(current.server)
    expect(main).toHaveLength(2)
    const blocks = newInput(main[1]!)
    const toolResult = blocks.indexOf('output:worked')
    const steer = blocks.findIndex((block) => block.includes('please also add tests'))
    expect(toolResult).toBeGreaterThanOrEqual(0)
    expect(steer).toBeGreaterThan(toolResult)
    expect(blocks.filter((block) => block.includes('please also add tests'))).toHaveLength(1)

    // OMP: one claim, accepted exactly once, and the message is never fed again.
    expect(call.claims).toHaveLength(1)
    expect(call.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['please also add tests'])
    expect(agent.queue).toEqual([])

    // Recorded once in the turn, after the tool result, before OMP's accept; the acceptance names the tool boundary.
    const steered = session.messages.filter((message) => message.source?.kind === 'steering')
    expect(steered.map((message) => textOf(message))).toEqual(['please also add tests'])
    expect(steered[0]!.source).toEqual({ kind: 'steering', transport: 'omp' })
    const roles = session.messages.map((message) => message.role)
    expect(roles.indexOf('tool')).toBeLessThan(session.messages.indexOf(steered[0]!))

    const atAccept = parse(logAtAccept)
    const message = atAccept.find((event) => event.type === 'message' && event.message.source?.kind === 'steering')
    const accepted = atAccept.find((event) => event.type === 'steering/accepted')
    expect(message).toBeDefined()
    expect(accepted).toMatchObject({ transport: 'omp', boundary: 'tool', droppedIds: [] })
    if (message?.type !== 'message' || accepted?.type !== 'steering/accepted') throw new Error('unreachable')
    expect(accepted.itemIds).toEqual([message.message.meta?.steeringItemId])
    expect(accepted.seq).toBeGreaterThan(message.seq)

    const events = readLog(session.transcriptPath)
    expect(events.filter((event) => event.type === 'turn/start')).toHaveLength(1)
    expect(events.filter((event) => event.type === 'steering/accepted' && event.itemIds.length > 0)).toHaveLength(1)
    await session.end()
  })

  it('a message queued in OMP between turns joins the next turn’s prompt (its start boundary), accepted once; the answer’s end had nothing to claim', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    const boundaries: string[] = []
    const claim = omp.source.claim.bind(omp.source)
    omp.source.claim = (boundary, signal) => {
      boundaries.push(`${boundary.kind}:${boundary.step}`)
      return claim(boundary, signal)
    }
    current = await driverHarness({ plugins: [omp] })
    const session = await current.kernel.startSession()
    const first = await session.run('just answer')
    expect(first.status).toBe('completed')
    // The turn's start and its answer's end asked; OMP had nothing then.
    expect(boundaries[0]).toBe('sampling:1')
    expect(boundaries).toContain('final:1')
    expect(boundaries.every((boundary) => boundary === 'sampling:1' || boundary === 'final:1')).toBe(true)
    expect(call.claims).toHaveLength(0)

    agent.push('one more thing')
    const before = mainRequests(current.server).length
    const second = await session.run('and now')
    expect(second.status).toBe('completed')
    expect(call.claims).toHaveLength(1)
    expect(call.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['one more thing'])
    // The turn's first request carries the prompt and the queued message together.
    const opening = mainRequests(current.server)[before]!
    const text = JSON.stringify(lastUserMessage(opening))
    expect(text).toContain('and now')
    expect(text).toContain('one more thing')
    expect(session.messages.filter((message) => message.source?.kind === 'steering').map((message) => textOf(message))).toEqual([
      'one more thing',
    ])
    await session.end()
  })
})
