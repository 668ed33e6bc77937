// A scenario's plan as the script of the fake Responses API (`startFakeOpenAI` of `@harness-kernel/testing`) that both
// sides sample: one step per model request, in order (the last repeats):
//   { kind: 'text', text, chunks?, chunkMs? }   an assistant message, streamed in `chunks` deltas, `chunkMs` apart
//   { kind: 'shell', cmd, args? }                a shell call: `exec_command {cmd}` when the request offers Codex's
//                                                tool, else the kernel's `shell {command}`; `args` go to either as
//                                                they are (Codex's escalation: sandbox_permissions, justification,
//                                                prefix_rule, which both tools take under the same names)
import { toolsOf } from '@harness-kernel/testing'

export function planModel() {
  let plan = [{ kind: 'text', text: 'ok' }]
  return {
    setPlan(next) {
      plan = next
    },
    script(request) {
      const step = plan[Math.min(request.n, plan.length - 1)]
      if (step.kind === 'shell') {
        const codex = toolsOf(request).includes('exec_command')
        const input = { ...(codex ? { cmd: step.cmd, yield_time_ms: 10_000 } : { command: step.cmd }), ...step.args }
        return { toolCalls: [{ id: `call_${request.n}`, name: codex ? 'exec_command' : 'shell', input }] }
      }
      const count = step.chunks ?? 1
      const text = Array.from({ length: count }, (_, i) => (count > 1 ? `${step.text} [${i + 1}/${count}] ` : step.text))
      return { text, ...(step.chunkMs ? { chunkDelayMs: step.chunkMs } : {}) }
    },
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
