import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { createKernel, type GuardrailsPolicy, type Kernel, type Plugin } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { type AppServer, createAppServer } from '../../src/app-server.js'
import { createAppServerBridge } from '../../src/bridge.js'
import { type ApprovalHandler, AppServerClient } from '../../src/client.js'
import type { WireTurn } from '../../src/wire-items.js'
import { codexSchema } from './codex-schema.js'

export interface InProcessServer {
  client: AppServerClient
  kernel: Kernel
  server: AppServer
  /** The kernel's cwd (a fresh directory under the system's temporary directory). */
  cwd: string
  /** Ends the client's side (the host goes away), waits for the server to wind down, disposes the kernel. */
  close(): Promise<void>
  /** What the model got back for a tool call, by call id. */
  toolOutput(callId: string): string | undefined
  /** The server requests received, in order. */
  serverRequests(method?: string): { id: unknown; method: string; params: Record<string, unknown> }[]
  /** Starts a turn (`turn/start` with any extra params) and waits for its `turn/completed`. */
  turn(threadId: string, text: string, extra?: Record<string, unknown>): Promise<WireTurn>
}

export interface InProcessOptions {
  defaultPolicy?: GuardrailsPolicy
  onRuleAmendment?: (prefix: string[]) => void | Promise<void>
  onApproval?: ApprovalHandler
  /** Composed after the server's plugin, the built-in shell and write_file tools and the scripted model. */
  plugins?: Plugin[]
  experimentalApi?: boolean
}

/**
 * The server in this process over in-memory streams, on a kernel with the scripted model and the real shell and
 * write_file tools (their processes and writes go through the kernel's sandbox), initialized. Every message it sends
 * is checked against Codex's schema (`codexSchema`).
 */
export async function startInProcess(steps: ScriptStep[], options: InProcessOptions = {}): Promise<InProcessServer> {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'app-server-guardrails-')))
  const bridge = createAppServerBridge()
  const model = scriptedModel({ script: steps })
  const kernel = createKernel([bridge.plugin, tools({ include: ['shell', 'write_file'] }), model, ...(options.plugins ?? [])], {
    cwd,
  })
  const toServer = new PassThrough()
  const fromServer = new PassThrough()
  const server = createAppServer({
    kernel,
    bridge,
    input: toServer,
    output: fromServer,
    log: () => {},
    ...(options.defaultPolicy ? { defaultPolicy: options.defaultPolicy } : {}),
    ...(options.onRuleAmendment ? { onRuleAmendment: options.onRuleAmendment } : {}),
  })
  const client = new AppServerClient(fromServer, toServer, {
    onReceive: codexSchema.onReceive,
    ...(options.onApproval ? { onApproval: options.onApproval } : {}),
  })
  await client.initialize({ experimentalApi: options.experimentalApi === true })
  let closed = false
  return {
    client,
    kernel,
    server,
    cwd,
    async close() {
      if (closed) return
      closed = true
      toServer.end()
      await server.closed
      await kernel.dispose()
    },
    toolOutput(callId) {
      for (const request of model.model.requests) {
        for (const message of request.messages) {
          for (const block of message.content) {
            if (block.type === 'tool_result' && block.callId === callId) return block.output
          }
        }
      }
      return undefined
    },
    serverRequests(method) {
      return client.received
        .filter((message) => typeof message.method === 'string' && 'id' in message && (method === undefined || message.method === method))
        .map((message) => ({ id: message.id, method: message.method as string, params: message.params as Record<string, unknown> }))
    },
    async turn(threadId, text, extra = {}) {
      const { turn } = await client.request<{ turn: WireTurn }>('turn/start', {
        threadId,
        input: [{ type: 'text', text, text_elements: [] }],
        ...extra,
      })
      return (await client.turnCompleted(threadId, turn.id)).turn
    },
  }
}

/**
 * A new directory outside the workspace and outside /tmp, under /var/tmp: a workspace-write sandbox does not let a
 * command write there (unless `$TMPDIR` points there).
 */
export function outsideDirectory(): string {
  return realpathSync(mkdtempSync('/var/tmp/app-server-outside-'))
}
