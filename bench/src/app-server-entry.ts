// The app server on stdio for `app-server.bench.ts`: the scripted model (`record: false`), a no-op tool, nothing else.
// Usage: node app-server-entry.js --script FILE --cwd DIR [--stats FILE]
// With --stats, every `turn/hostInput/request` is timed on this side, from the write of its line to stdout to the arrival
// of the answer's line on stdin (hrtime), and this process's CPU time is read at each `turn/started` and `turn/completed`
// written; both go to FILE as JSON (`{ rtts: ms[], marks: { cpuMs, rtts }[] }`) when the server closes.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Transform, Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { createAppServer } from '@harness-kernel/app-server'
import { createKernel, definePlugin, defineTool } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { z } from 'zod'

const { values } = parseArgs({ options: { script: { type: 'string' }, cwd: { type: 'string' }, stats: { type: 'string' } } })
if (!values.script || !values.cwd) throw new Error('usage: app-server-entry --script FILE --cwd DIR [--stats FILE]')
const cwd = values.cwd

const noopTool = definePlugin({
  name: 'bench-noop',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'noop',
        description: 'Does nothing.',
        inputSchema: z.object({}),
        async execute() {
          return { output: 'ok', isError: false }
        },
      }),
    )
  },
})

/** Request id → hrtime of its write; the round trips in ms. */
const sent = new Map<string, bigint>()
const rtts: number[] = []
/** At each turn start and end written: this process's CPU ms so far, and how many round trips were timed by then. */
const marks: { cpuMs: number; rtts: number }[] = []
const REQUEST = '"method":"turn/hostInput/request"'
const TURN_MARK = /"method":"turn\/(started|completed)"/
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e3
}

/** Notes what `text` (whole lines) carries: the send time of host-input requests, CPU time at turn starts and ends. */
function wrote(text: string): void {
  if (!values.stats) return
  const at = process.hrtime.bigint()
  for (const line of text.split('\n')) {
    if (line.includes(REQUEST)) sent.set(JSON.stringify((JSON.parse(line) as { id: unknown }).id), at)
    else if (TURN_MARK.test(line)) marks.push({ cpuMs: cpuMs(), rtts: rtts.length })
  }
}

/**
 * What the server writes to: each line straight to stdout (a synchronous write on a Linux pipe, as when the server writes
 * to `process.stdout` itself), noted. The server calls only `write(string)` (and reads `destroyed`/`writableEnded`).
 */
const output = new Writable()
output.write = ((text: string) => {
  process.stdout.write(text)
  wrote(text)
  return true
}) as typeof output.write

let pending = ''
const input = new Transform({
  transform(chunk: Buffer, _encoding, callback) {
    if (values.stats) {
      const arrived = process.hrtime.bigint()
      const lines = (pending + chunk.toString('utf8')).split('\n')
      pending = lines.pop() ?? ''
      for (const line of sent.size > 0 ? lines : []) {
        if (!line.includes('"result"') && !line.includes('"error"')) continue
        const key = JSON.stringify((JSON.parse(line) as { id?: unknown }).id)
        const start = sent.get(key)
        if (start === undefined) continue
        sent.delete(key)
        rtts.push(Number(arrived - start) / 1e6)
      }
    }
    callback(null, chunk)
  },
})
process.stdin.pipe(input)

const server = createAppServer({
  createKernel: (plugins) =>
    createKernel([...plugins, noopTool, scriptedModel({ script: values.script!, record: false, textDeltas: false })], {
      cwd,
      sessionsDir: join(cwd, 'sessions'),
    }),
  input,
  output,
})
server.closed.then(() => {
  if (values.stats) writeFileSync(values.stats, JSON.stringify({ rtts, marks }))
  process.stdin.pause()
})
