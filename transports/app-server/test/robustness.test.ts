import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { HostInputItem } from '../src/host-input-protocol.js'
import type { ScriptStep } from './harness.js'
import { startServer, toolHeldUntilInterrupted, userItem, waitUntil } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const logEvents = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown })

const recordedTexts = (path: string) =>
  logEvents(path).flatMap((event) =>
    event.type === 'message'
      ? [(event.message as { content: { type: string; text?: string }[] }).content.map((block) => block.text ?? '').join('')]
      : [],
  )

describe('robustness', () => {
  it('a host disconnect mid-turn interrupts the turn and loses no recorded event', async () => {
    // The tool call runs until the turn is interrupted: that `close` returns at all shows the disconnect interrupted it.
    const server = startServer([toolHeldUntilInterrupted])
    const client = server.client
    await client.initialize()
    const { thread } = await client.startThread()
    await client.startTurn(thread.id, 'go')
    await client.waitFor('item/started', (params) => (params.item as { type: string }).type === 'commandExecution')
    expect(await client.close()).toBe(0)
    const events = logEvents(thread.path)
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['turn/start', 'tool/call', 'tool/result', 'turn/end', 'session/end']),
    )
    expect(events.find((event) => event.type === 'turn/end')).toMatchObject({ status: 'interrupted' })
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1))
  })

  it('stress: many threads, random steers, interrupts and late answers; every host item recorded once or reported back', async () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const steps: ScriptStep[] = []
    for (let index = 0; index < 400; index++)
      steps.push(index % 3 === 2 ? { text: 'ok' } : { tool_calls: [{ name: 'wait', input: { ms: 15 } }] })
    const sentHost = new Map<string, { threadId: string; requestId: unknown }>()
    let counter = 0
    const server = startServer(steps, {
      args: ['--timeout-ms', '1000'],
      onHostInput: (request, id) => {
        const roll = random()
        if (roll < 0.35) return { items: [] }
        const label = `host-${counter++}`
        sentHost.set(label, { threadId: request.threadId, requestId: id })
        const answer = { items: [userItem(label)] as HostInputItem[] }
        if (roll < 0.75) return answer
        // Late (after the 1 s timeout) or merely slow.
        setTimeout(() => server.client.respond(id, answer), roll < 0.85 ? 1100 : 30)
        return undefined
      },
    })
    const client = server.client
    await client.initialize({ hostInput: { boundaries: ['sampling', 'final'], timeoutMs: 1000 } })
    const threads = await Promise.all(Array.from({ length: 6 }, () => client.startThread()))
    const sentSteers = new Map<string, string>()
    const failedSteers = new Set<string>()
    await Promise.all(
      threads.map(async ({ thread }) => {
        for (let round = 0; round < 3; round++) {
          const { turn } = await client.startTurn(thread.id, `prompt ${round}`)
          const done = client.turnCompleted(thread.id, turn.id, 20_000)
          for (let steer = 0; steer < 3; steer++) {
            await new Promise((resolve) => setTimeout(resolve, random() * 40))
            const label = `steer-${thread.id.slice(-4)}-${round}-${steer}`
            sentSteers.set(label, thread.id)
            await client.steer(thread.id, turn.id, label).catch(() => failedSteers.add(label))
          }
          if (random() < 0.4) await client.interrupt(thread.id, turn.id).catch(() => {})
          await done
        }
      }),
    )
    // Every host answer, late ones included (sent 1.1 s after their request), is recorded or reported back.
    const accepted = () =>
      new Set(
        client.notifications
          .filter((entry) => entry.method === 'item/completed' && (entry.params.item as { type: string }).type === 'hostInputMessage')
          .map((entry) => (entry.params.item as { content: { text: string }[] }).content[0]!.text),
      )
    const rejected = () =>
      new Set(client.notifications.filter((entry) => entry.method === 'turn/hostInput/rejected').map((entry) => entry.params.requestId))
    await waitUntil(() => {
      const [yes, no] = [accepted(), rejected()]
      return [...sentHost].every(([label, { requestId }]) => yes.has(label) || no.has(requestId))
    }, 'every host answer to be recorded or reported back')
    const paths = new Map(threads.map(({ thread }) => [thread.id, thread.path]))
    const texts = new Map([...paths].map(([id, path]) => [id, recordedTexts(path)]))
    const rejectedIds = rejected()
    const acceptedLabels = accepted()
    for (const [label, { threadId, requestId }] of sentHost) {
      const count = texts.get(threadId)!.filter((value) => value === label).length
      if (acceptedLabels.has(label)) expect(count, label).toBe(1)
      else {
        expect(count, label).toBe(0)
        expect(rejectedIds.has(requestId), `${label} reported back`).toBe(true)
      }
      for (const [other, otherTexts] of texts) if (other !== threadId) expect(otherTexts).not.toContain(label)
    }
    expect(acceptedLabels.size).toBeGreaterThan(0)
    expect(rejectedIds.size).toBeGreaterThan(0)
    const droppedLabels = new Set(
      client.notifications
        .filter((entry) => entry.method === 'turn/steer/dropped')
        .map((entry) => (entry.params.input as { text: string }[])[0]!.text),
    )
    expect(droppedLabels.size).toBeGreaterThan(0)
    for (const [label, threadId] of sentSteers) {
      const count = texts.get(threadId)!.filter((value) => value === label).length
      if (failedSteers.has(label)) expect(count, label).toBe(0)
      else expect(count + (droppedLabels.has(label) ? 1 : 0), label).toBe(1)
    }
    expect(await client.close()).toBe(0)
  }, 60_000)
})
