import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { ExecProcessRunner } from '@harness-kernel/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dedupHandlers, type HandlerRunSpec, hookEnv, type RunnableHandler, type RunnerServices, runHandlers } from '../src/run/index.js'
import { closedPort, commandHandler, fakeModel, httpHandler, promptHandler, stampMs, stdin, tempDir } from './fixtures/run/helpers.js'

const processRunner = new ExecProcessRunner()
const dir = tempDir('cc-run-handlers-')
const env = hookEnv({ projectDir: dir.path, sessionId: 's', event: 'Stop' })
afterAll(() => dir.cleanup())

function spec(handler: RunnableHandler, fields: Partial<HandlerRunSpec> = {}): HandlerRunSpec {
  return { handler, stdin, cwd: dir.path, env, timeoutMs: 20_000, ...fields }
}

/** A hook that stamps its start and end (epoch ns) and sleeps in between. */
function stamped(name: string, seconds: number): string {
  return `date +%s%N > ${name}.start; sleep ${seconds}; date +%s%N > ${name}.end; echo ${name}`
}

let server: Server
let base: string
const httpArrivals: number[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    httpArrivals.push(Date.now())
    request.resume()
    request.on('end', () => {
      const delay = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('delay') ?? 0)
      const touch = new URL(request.url ?? '/', 'http://x').searchParams.get('touch')
      setTimeout(() => {
        response.writeHead(200).end('{}', () => {
          if (touch) writeFileSync(join(dir.path, touch), '')
        })
      }, delay)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('runHandlers', () => {
  it('starts every command at once: each starts before any ends', async () => {
    const names = ['one', 'two', 'three']
    const results = await runHandlers(
      { processRunner },
      names.map((name) => spec(commandHandler(stamped(name, 1)))),
    )
    expect(results.map((result) => [result.exitCode, result.stdout])).toEqual(names.map((name) => [0, `${name}\n`]))
    const starts = names.map((name) => stampMs(join(dir.path, `${name}.start`)))
    const ends = names.map((name) => stampMs(join(dir.path, `${name}.end`)))
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends))
  })

  it('starts commands, http and prompt handlers together', async () => {
    let promptCalledAt = 0
    const model = fakeModel(async () => {
      promptCalledAt = Date.now()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      return '{"ok": true}'
    })
    httpArrivals.length = 0
    const results = await runHandlers({ processRunner, model }, [
      spec(commandHandler(stamped('mixed', 1))),
      spec(httpHandler(`${base}/hook?delay=1000`)),
      spec(promptHandler('$ARGUMENTS')),
    ])
    expect(results.map((result) => [result.kind, result.exitCode])).toEqual([
      ['command', 0],
      ['http', 0],
      ['prompt', 0],
    ])
    const starts = [stampMs(join(dir.path, 'mixed.start')), httpArrivals[0]!, promptCalledAt]
    const firstEnd = Math.min(stampMs(join(dir.path, 'mixed.end')), ...results.map((result) => result.completedAt))
    expect(Math.max(...starts)).toBeLessThan(firstEnd)
    for (const result of results) expect(result.startedAt).toBeLessThanOrEqual(result.completedAt)
  })

  it('returns results in input order with the finish order as completionIndex', async () => {
    // b finishes first, c waits for b, a waits for c: the order does not rest on sleep lengths alone.
    const results = await runHandlers({ processRunner }, [
      spec(commandHandler('while [ ! -f c.done ]; do sleep 0.02; done; sleep 0.3; echo a')),
      spec(commandHandler('touch b.done; echo b')),
      spec(commandHandler('while [ ! -f b.done ]; do sleep 0.02; done; sleep 0.3; touch c.done; echo c')),
    ])
    expect(results.map((result) => result.stdout)).toEqual(['a\n', 'b\n', 'c\n'])
    expect(results.map((result) => result.completionIndex)).toEqual([2, 0, 1])
  })

  it('orders completion across handler kinds', async () => {
    const model = fakeModel(() => '{"ok": true}')
    const results = await runHandlers({ processRunner, model }, [
      spec(commandHandler('while [ ! -f http.done ]; do sleep 0.02; done; sleep 0.3; echo last')),
      spec(httpHandler(`${base}/hook?delay=300&touch=http.done`)),
      spec(promptHandler('$ARGUMENTS')),
    ])
    expect(results.map((result) => result.kind)).toEqual(['command', 'http', 'prompt'])
    expect(results.map((result) => result.completionIndex)).toEqual([2, 1, 0])
  })

  it('never loses one handler’s result to another’s failure', async () => {
    const results = await runHandlers({ processRunner }, [
      spec(commandHandler(join(dir.path, 'missing-hook'), { args: [] })),
      spec(httpHandler(`http://127.0.0.1:${await closedPort()}/refused`)),
      spec(promptHandler('$ARGUMENTS')),
      spec({ ...commandHandler('x'), type: 'agent' } as unknown as RunnableHandler),
      spec(commandHandler('echo fine')),
    ])
    expect(results.map((result) => [result.kind, result.exitCode, result.error])).toEqual([
      ['command', null, `command not found: ${join(dir.path, 'missing-hook')} (ENOENT)`],
      ['http', null, expect.stringMatching(/^connection refused/)],
      ['prompt', null, 'prompt hooks need a model provider'],
      ['command', null, 'unsupported handler type: agent'],
      ['command', 0, undefined],
    ])
    expect(results[4]!.stdout).toBe('fine\n')
    expect(new Set(results.map((result) => result.completionIndex))).toEqual(new Set([0, 1, 2, 3, 4]))
  })

  it('aborts every kind of handler with one signal', async () => {
    const controller = new AbortController()
    const services: RunnerServices = { processRunner, model: fakeModel(() => new Promise<string>(() => {})) }
    setTimeout(() => controller.abort(), 300)
    const results = await runHandlers(
      services,
      [commandHandler('sleep 30'), httpHandler(`${base}/hook?delay=30000`), promptHandler('$ARGUMENTS')].map((handler) =>
        spec(handler, { signal: controller.signal }),
      ),
    )
    expect(results.map((result) => [result.kind, result.aborted, result.exitCode])).toEqual([
      ['command', true, null],
      ['http', true, null],
      ['prompt', true, null],
    ])
  })

  it('runs a command configured in two groups and two sources once after dedup; an extra space runs again', async () => {
    const log = join(dir.path, 'dedup.log')
    writeFileSync(log, '')
    const once = `echo ran >> ${log}`
    const twice = `echo  ran >> ${log}`
    const handlers = dedupHandlers([
      commandHandler(once, { source: 'project', groupIndex: 0 }),
      commandHandler(once, { source: 'project', groupIndex: 1 }),
      commandHandler(once, { source: 'user', sourcePath: '/home/u/.claude/settings.json' }),
      commandHandler(twice, { source: 'user', groupIndex: 2 }),
    ])
    await runHandlers(
      { processRunner },
      handlers.map((handler) => spec(handler)),
    )
    expect(readFileSync(log, 'utf8')).toBe('ran\nran\n')
  })
})
