import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { ExecProcessRunner, LauncherProcessRunner, type ProcessRunner } from '@harness-kernel/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dedupHandlers, type HandlerRunSpec, hookEnv, type RunnableHandler, type RunnerServices, runHandlers } from '../src/run/index.js'
import { closedPort, commandHandler, fakeModel, httpHandler, promptHandler, stdin, tempDir } from './fixtures/run/helpers.js'
import { WAIT_BOUND_MS, waitUntil } from './waits.js'

// The block runs with this process's runner and with the kernel's default, the process launcher, each in a folder of its
// own (`work`: the handlers meet through files there).
const runners = [
  { name: 'ExecProcessRunner', runner: new ExecProcessRunner() },
  { name: 'LauncherProcessRunner', runner: new LauncherProcessRunner() },
]
let processRunner: ProcessRunner = runners[0]!.runner
const dir = tempDir('cc-run-handlers-')
let work = dir.path
const env = hookEnv({ projectDir: dir.path, sessionId: 's', event: 'Stop' })
afterAll(() => dir.cleanup())

function spec(handler: RunnableHandler, fields: Partial<HandlerRunSpec> = {}): HandlerRunSpec {
  return { handler, stdin, cwd: work, env, timeoutMs: 20_000, ...fields }
}

const inDir = (name: string) => join(work, name)
const allExist = (names: readonly string[]) => names.every((name) => existsSync(inDir(name)))

/** A command that creates `started`, then finishes once every file of `others` exists in the directory. */
function meeting(started: string, others: readonly string[], output: string): string {
  return `touch ${started}; until ${others.map((name) => `[ -e ${name} ]`).join(' && ')}; do sleep 0.02; done; echo ${output}`
}

/** The real process runner; once a command's run has settled it creates `<the command's output>.settled`. */
const settlingRunner: ProcessRunner = {
  async run(options) {
    const result = await processRunner.run(options)
    writeFileSync(inDir(`${result.stdout.trim()}.settled`), '')
    return result
  },
}

let server: Server
let base: string

/**
 * `/hook` answers `{}`. Query: `arrived` (a file created when the request has arrived), `await` (comma-separated files
 * to wait for before answering), `hold` (never answer).
 */
beforeAll(async () => {
  server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams
    const arrived = query.get('arrived')
    if (arrived) writeFileSync(inDir(arrived), '')
    request.resume()
    request.on('end', async () => {
      if (query.has('hold')) return
      const awaited = query.get('await')?.split(',') ?? []
      await waitUntil(() => allExist(awaited), `${awaited.join(', ')} before answering`)
      response.writeHead(200).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe.each(runners)('$name: runHandlers', ({ runner }) => {
  beforeAll(() => {
    processRunner = runner
    work = mkdtempSync(join(dir.path, 'run-'))
  })

  it('starts every command at once: each starts before any ends', async () => {
    // Each finishes only once all three have started: started one at a time, the first would time out.
    const names = ['one', 'two', 'three']
    const starts = names.map((name) => `${name}.start`)
    const results = await runHandlers(
      { processRunner },
      names.map((name) => spec(commandHandler(meeting(`${name}.start`, starts, name)), { timeoutMs: WAIT_BOUND_MS })),
    )
    expect(results.map((result) => [result.exitCode, result.timedOut, result.stdout])).toEqual(names.map((name) => [0, false, `${name}\n`]))
  })

  it('starts commands, http and prompt handlers together', async () => {
    // Each finishes only once the other two have started, as in the test above.
    const model = fakeModel(async () => {
      writeFileSync(inDir('prompt.called'), '')
      await waitUntil(() => allExist(['mixed.start', 'http.arrived']), 'the command and the http request')
      return '{"ok": true}'
    })
    const results = await runHandlers({ processRunner, model }, [
      spec(commandHandler(meeting('mixed.start', ['http.arrived', 'prompt.called'], 'mixed')), { timeoutMs: WAIT_BOUND_MS }),
      spec(httpHandler(`${base}/hook?arrived=http.arrived&await=mixed.start,prompt.called`), { timeoutMs: WAIT_BOUND_MS }),
      spec(promptHandler('$ARGUMENTS'), { timeoutMs: WAIT_BOUND_MS }),
    ])
    expect(results.map((result) => [result.kind, result.exitCode])).toEqual([
      ['command', 0],
      ['http', 0],
      ['prompt', 0],
    ])
    for (const result of results) expect(result.startedAt).toBeLessThanOrEqual(result.completedAt)
  })

  it('returns results in input order with the finish order as completionIndex', async () => {
    // b finishes first, c once b's run has settled, a once c's has.
    const results = await runHandlers({ processRunner: settlingRunner }, [
      spec(commandHandler('until [ -e c.settled ]; do sleep 0.02; done; echo a')),
      spec(commandHandler('echo b')),
      spec(commandHandler('until [ -e b.settled ]; do sleep 0.02; done; echo c')),
    ])
    expect(results.map((result) => result.stdout)).toEqual(['a\n', 'b\n', 'c\n'])
    expect(results.map((result) => result.completionIndex)).toEqual([2, 0, 1])
  })

  it('orders completion across handler kinds', async () => {
    // The command finishes first; the model answers once its run has settled; the server once the model has answered.
    const model = fakeModel(async () => {
      await waitUntil(() => allExist(['first.settled']), 'the command to settle')
      writeFileSync(inDir('prompt.answered'), '')
      return '{"ok": true}'
    })
    const results = await runHandlers({ processRunner: settlingRunner, model }, [
      spec(commandHandler('echo first')),
      spec(httpHandler(`${base}/hook?await=prompt.answered`)),
      spec(promptHandler('$ARGUMENTS')),
    ])
    expect(results.map((result) => result.kind)).toEqual(['command', 'http', 'prompt'])
    expect(results.map((result) => result.completionIndex)).toEqual([0, 2, 1])
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
    const model = fakeModel(() => new Promise<string>(() => {}))
    const services: RunnerServices = { processRunner, model }
    const running = runHandlers(
      services,
      [
        commandHandler('touch abort.started; sleep 1000'),
        httpHandler(`${base}/hook?arrived=abort.arrived&hold`),
        promptHandler('$ARGUMENTS'),
      ].map((handler) => spec(handler, { signal: controller.signal })),
    )
    // Aborted once every one has started, none of which finishes by itself.
    await waitUntil(() => allExist(['abort.started', 'abort.arrived']) && model.calls.length === 1, 'every handler to start')
    controller.abort()
    const results = await running
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
