// A fake OpenAI Responses API (SSE) on 127.0.0.1 that both sides of the differential suite sample: the real
// `codex app-server` (its provider's base_url) and `harness app-server --model openai:…` (OPENAI_BASE_URL).
// A scenario sets the plan: one step per model request, in order (the last repeats):
//   { kind: 'text', text, chunks?, chunkMs? }   an assistant message, streamed in `chunks` deltas
//   { kind: 'shell', cmd, args? }                a shell call: `exec_command {cmd}` when the request offers Codex's
//                                                tool, else the kernel's `shell {command}`; `args` go to either as
//                                                they are (Codex's escalation: sandbox_permissions, justification,
//                                                prefix_rule, which both tools take under the same names)
import { createServer } from 'node:http'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export async function startFakeResponses() {
  let plan = [{ kind: 'text', text: 'ok' }]
  let seq = 0
  const requests = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', async () => {
      if (!(req.method === 'POST' && /\/responses(\?|$)/.test(req.url ?? ''))) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
        return
      }
      let body = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {}
      const n = seq++
      requests.push({ n, body })
      const step = plan[Math.min(n, plan.length - 1)]
      const send = (event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const id = `resp_${n}`
      send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } })
      let item
      if (step.kind === 'shell') {
        const codex = (body.tools ?? []).some((tool) => tool.name === 'exec_command')
        const args = { ...(codex ? { cmd: step.cmd, yield_time_ms: 10_000 } : { command: step.cmd }), ...step.args }
        item = {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          name: codex ? 'exec_command' : 'shell',
          arguments: JSON.stringify(args),
        }
        send({ type: 'response.output_item.added', output_index: 0, item })
      } else {
        const count = step.chunks ?? 1
        const parts = Array.from({ length: count }, (_, i) => (count > 1 ? `${step.text} [${i + 1}/${count}] ` : step.text))
        const message = { type: 'message', role: 'assistant', id: `msg_${n}`, content: [] }
        send({ type: 'response.output_item.added', output_index: 0, item: message })
        send({
          type: 'response.content_part.added',
          output_index: 0,
          item_id: message.id,
          content_index: 0,
          part: { type: 'output_text', text: '' },
        })
        for (const part of parts) {
          if (res.destroyed) return
          send({ type: 'response.output_text.delta', output_index: 0, item_id: message.id, content_index: 0, delta: part })
          if (step.chunkMs) await sleep(step.chunkMs)
        }
        item = { ...message, content: [{ type: 'output_text', text: parts.join(''), annotations: [] }] }
      }
      if (res.destroyed) return
      send({ type: 'response.output_item.done', output_index: 0, item })
      const usage = {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      }
      send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage } })
      res.end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    setPlan(next) {
      plan = next
      seq = 0
      requests.length = 0
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** What the model was told of each call, in call order: the `function_call_output`s the requests carried. */
export function toolOutputs(requests) {
  const outputs = new Map()
  for (const { body } of requests) {
    for (const item of body.input ?? []) {
      if (item.type !== 'function_call_output' || outputs.has(item.call_id)) continue
      const text = typeof item.output === 'string' ? item.output : (item.output ?? []).map((part) => part.text ?? '').join('')
      outputs.set(item.call_id, text)
    }
  }
  return [...outputs.values()]
}
