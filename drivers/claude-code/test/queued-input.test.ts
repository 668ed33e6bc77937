import { gate, newInput, type RecordedRequest, type Reply } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { ClaudeSession, type Seen } from './support/claude-session.js'

/**
 * What the real Claude Code (2.1.332, the Agent SDK 0.3.332 that `npm ci` installs) does with a `next` message sent
 * while a turn runs, observed through the SDK: the facts live steering in the driver stands on (docs/drivers.md §3.1).
 * Each case waits for the events it names; a reply held by a gate keeps the answer streaming until the message is queued.
 */

const FIRST = 'FIRST prompt'

let session: ClaudeSession | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
})

/** The model: the first prompt's answer as `first` says; any other request a short text naming its number. */
const script =
  (first: (request: RecordedRequest) => Reply) =>
  (request: RecordedRequest): Reply =>
    newInput(request).some((text) => text.includes(FIRST)) ? first(request) : { text: `reply to request #${request.n}` }

/** A streamed answer that has begun (`message_start` sent) and waits for the gate before its text. */
function heldAnswer() {
  const answer = gate()
  return { answer, reply: (): Reply => ({ text: ['part one, ', 'part two, ', 'part three'], heldUntil: answer.opened }) }
}

const resultUuids = (result: Record<string, unknown>) => result.user_message_uuids as string[]
const isAssistantText = (seen: Seen) => seen.kind === 'message' && seen.message.type === 'assistant'

describe('the real Claude Code, a `next` message sent while its answer streams', () => {
  it('is queued at once and not folded into the answer; after the Stop callback and the result it runs as a turn of its own', {
    timeout: 60_000,
  }, async () => {
    const { answer, reply } = heldAnswer()
    session = await ClaudeSession.start({ server: { script: script(reply) }, hooks: { Stop: () => ({}), UserPromptSubmit: () => ({}) } })
    const prompt = session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    const queued = await session.frame(steer, 'queued')
    answer.open()
    const first = await session.result(1)
    const second = await session.result(2)

    const answerIndex = await session.until(isAssistantText)
    const stop = await session.hook('Stop', 1)
    const started = await session.frame(steer, 'started')
    const submitted = await session.until(
      (seen) => seen.kind === 'hook' && seen.event === 'UserPromptSubmit' && seen.input.prompt === 'STEER one',
    )
    expect(queued).toBeLessThan(answerIndex)
    expect(answerIndex).toBeLessThan(stop)
    expect(stop).toBeLessThan(first.index)
    expect(first.index).toBeLessThan(started)
    expect(started).toBeLessThan(submitted)
    expect(submitted).toBeLessThan(second.index)
    expect(resultUuids(first.result)).toEqual([prompt])
    expect(resultUuids(second.result)).toEqual([steer])
    expect(first.result).toMatchObject({ subtype: 'success', num_turns: 1 })

    // The answer was not cut short; the steer is the next request's only new input, once.
    const [, next] = session.server.requests
    expect(newInput(next!)).toEqual(['user:STEER one'])
    expect(session.server.requests).toHaveLength(2)
    expect(session.count((seen) => seen.kind === 'hook' && seen.event === 'Stop')).toBe(2)
  })

  it('two of them start together as one turn, their texts joined by a newline', { timeout: 60_000 }, async () => {
    const { answer, reply } = heldAnswer()
    session = await ClaudeSession.start({ server: { script: script(reply) }, hooks: { UserPromptSubmit: () => ({}) } })
    session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const one = session.send('STEER one', 'next')
    const two = session.send('STEER two', 'next')
    await session.frame(one, 'queued')
    await session.frame(two, 'queued')
    answer.open()
    const second = await session.result(2)
    expect(resultUuids(second.result)).toEqual([one, two])
    expect(newInput(session.server.requests[1]!)).toEqual(['user:STEER one\nSTEER two'])
    await session.until((seen) => seen.kind === 'hook' && seen.event === 'UserPromptSubmit' && seen.input.prompt === 'STEER one\nSTEER two')
  })

  it('a Stop callback that blocks runs its continuation first; the queued message runs after, as its own turn', {
    timeout: 60_000,
  }, async () => {
    const { answer, reply } = heldAnswer()
    let stops = 0
    session = await ClaudeSession.start({
      server: { script: script(reply) },
      hooks: { Stop: () => (++stops === 1 ? { decision: 'block', reason: 'keep going' } : {}) },
    })
    session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    await session.frame(steer, 'queued')
    answer.open()
    const first = await session.result(1)
    const second = await session.result(2)
    expect(first.result).toMatchObject({ num_turns: 2 })
    expect(resultUuids(second.result)).toEqual([steer])
    const [, continuation, followUp] = session.server.requests
    expect(newInput(continuation!).join('\n')).toContain('keep going')
    expect(newInput(continuation!).join('\n')).not.toContain('STEER one')
    expect(newInput(followUp!)).toEqual(['user:STEER one'])
  })

  it('blocked by UserPromptSubmit: no request and no Stop; a result of no turns names it', { timeout: 60_000 }, async () => {
    const { answer, reply } = heldAnswer()
    session = await ClaudeSession.start({
      server: { script: script(reply) },
      hooks: {
        Stop: () => ({}),
        UserPromptSubmit: (input) => (String(input.prompt).includes('STEER') ? { decision: 'block', reason: 'no steering' } : {}),
      },
    })
    session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    await session.frame(steer, 'queued')
    answer.open()
    await session.result(1)
    const second = await session.result(2)
    await session.frame(steer, 'started')
    await session.frame(steer, 'completed')
    expect(second.result).toMatchObject({ subtype: 'success', num_turns: 0 })
    expect(resultUuids(second.result)).toEqual([steer])
    expect(session.server.requests).toHaveLength(1)
    expect(session.count((seen) => seen.kind === 'hook' && seen.event === 'Stop')).toBe(1)
    const blocked = session.seen.find(
      (seen) => seen.kind === 'message' && seen.message.subtype === 'informational' && String(seen.message.content).includes('no steering'),
    )
    expect(blocked).toBeDefined()
  })

  it('sent inside the Stop callback, it still runs after the result', { timeout: 60_000 }, async () => {
    let steer: string | undefined
    session = await ClaudeSession.start({
      server: { script: script(() => ({ text: 'the answer' })) },
      hooks: {
        Stop: async () => {
          if (steer !== undefined) return {}
          steer = session!.send('STEER at stop', 'next')
          await session!.frame(steer, 'queued')
          return {}
        },
      },
    })
    const prompt = session.send(FIRST)
    const first = await session.result(1)
    const second = await session.result(2)
    expect(resultUuids(first.result)).toEqual([prompt])
    expect(resultUuids(second.result)).toEqual([steer])
    expect(newInput(session.server.requests[1]!)).toEqual(['user:STEER at stop'])
  })

  it('interrupt({ cancelQueued }) cancels it before it runs; the turn ends aborted', { timeout: 60_000 }, async () => {
    const { reply } = heldAnswer()
    session = await ClaudeSession.start({ server: { script: script(reply) } })
    session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    await session.frame(steer, 'queued')
    const receipt = await session.interrupt()
    expect(receipt).toEqual({ still_queued: [], cancelled: [steer] })
    const first = await session.result(1)
    const cancelled = await session.frame(steer, 'cancelled')
    expect(cancelled).toBeLessThan(first.index)
    expect(first.result).toMatchObject({ subtype: 'error_during_execution' })
    expect(session.count((seen) => seen.kind === 'frame' && seen.uuid === steer && seen.state === 'started')).toBe(0)
    expect(session.server.requests).toHaveLength(1)
  })
})

describe('the real Claude Code, a `next` message sent while one of its own tools runs', () => {
  it('goes with the tool result into the next request, in the same turn', { timeout: 60_000 }, async () => {
    const toolDone = gate()
    let steer: string | undefined
    session = await ClaudeSession.start({
      builtinTools: ['Bash'],
      server: {
        script: script(() => ({ toolCalls: [{ name: 'Bash', input: { command: 'echo ran', description: 'echo' } }] })),
      },
      hooks: {
        PreToolUse: async () => {
          steer = session!.send('STEER during the tool', 'next')
          await session!.frame(steer, 'queued')
          toolDone.open()
          return {}
        },
      },
    })
    const prompt = session.send(FIRST)
    await toolDone.opened
    const first = await session.result(1)
    expect(resultUuids(first.result)).toEqual([prompt, steer])
    const next = newInput(session.server.requests[1]!)
    expect(next[0]).toBe('output:ran')
    expect(next.slice(1).join('\n')).toContain('STEER during the tool')
    expect(session.server.requests).toHaveLength(2)
  })
})
