// A plain client of one App Server child: sends requests, records every line it reads with the step it
// arrived in, answers server requests (approvals: decline, unless the script decides otherwise). Nothing about either
// server is assumed.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

export function spawnServer({ command, args, cwd, env }) {
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8000)
  })
  const log = []
  let step = 'start'
  let nextId = 1
  const pending = new Map()
  const waiters = []
  let decide = () => 'decline'
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`)
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message
    try {
      message = JSON.parse(line)
    } catch {
      log.push({ step, kind: 'garbage', line })
      return
    }
    const kind = message.method === undefined ? 'response' : message.id === undefined ? 'notification' : 'serverRequest'
    const entry = { step, kind, message, method: kind === 'response' ? pending.get(message.id)?.method : message.method }
    log.push(entry)
    if (kind === 'response') {
      const request = pending.get(message.id)
      pending.delete(message.id)
      request?.resolve(message)
    } else if (kind === 'serverRequest') {
      send({
        id: message.id,
        result: /requestApproval$/.test(message.method) ? { decision: decide(message.params ?? {}, message.method) } : {},
      })
    }
    for (const waiter of [...waiters]) {
      if (!waiter.match(entry)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(entry)
    }
  })
  const exited = new Promise((resolve) => child.on('close', resolve))
  return {
    log,
    get stderr() {
      return stderr
    },
    /** How approval requests are answered from here on: `(params, method) => decision`. */
    onApproval(decision) {
      decide = decision
    },
    /** Messages read from here on belong to `name`. */
    step(name) {
      step = name
    },
    /** Sends a request; resolves with the whole answer (`result` or `error`). */
    request(method, params, raw) {
      const id = raw?.id ?? nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { method, resolve })
        const timer = setTimeout(() => reject(new Error(`${method}: no answer within 30 s; stderr: ${stderr.slice(-500)}`)), 30_000)
        pending.get(id).resolve = (message) => {
          clearTimeout(timer)
          resolve(message)
        }
        send(raw?.message ?? { id, method, params })
      })
    },
    /** Sends a line as is (malformed input); nothing is awaited. */
    sendRaw(line) {
      child.stdin.write(`${line}\n`)
    },
    waitFor(match, timeoutMs = 30_000) {
      const seen = log.find((entry) => match(entry) && !entry.claimed)
      if (seen) {
        seen.claimed = true
        return Promise.resolve(seen)
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (entry) => {
            clearTimeout(timer)
            entry.claimed = true
            resolve(entry)
          },
        }
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error(`no matching message within ${timeoutMs} ms; stderr: ${stderr.slice(-500)}`))
        }, timeoutMs)
        waiters.push(waiter)
      })
    },
    async close() {
      child.stdin.end()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    },
  }
}

export const notification =
  (method, test = () => true) =>
  (entry) =>
    entry.kind === 'notification' && entry.method === method && test(entry.message.params ?? {})
export const itemCompleted = (type) => notification('item/completed', (params) => params.item?.type === type)
