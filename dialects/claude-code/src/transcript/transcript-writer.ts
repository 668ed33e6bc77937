import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Message, type SessionEvent, textOf } from '@harness-kernel/kernel'
import type { PermissionMode } from '../io/payload.js'
import type { ClaudeToolView } from '../io/tool-presentation.js'
import { hookTextMeta, stopFeedbackOf } from '../render/hook-text.js'
import {
  type AssistantBlock,
  assistantLine,
  type LineEnvelope,
  type LinePlace,
  promptLine,
  stopFeedbackLine,
  type TranscriptLine,
  toolResultLine,
} from './transcript-lines.js'

export interface TranscriptWriterOptions {
  /** `<transcriptDir>/<sessionId>.jsonl`; its folder is created. */
  path: string
  envelope: LineEnvelope
  /** The mode in force when a prompt is written. */
  permissionMode: () => PermissionMode
  /** The model's name for assistant lines. */
  model: () => string
  /** The running turn's `prompt_id`. */
  promptId: () => string | undefined
  /** A kernel call with Claude's tool name and input shape. */
  present: (name: string, input: unknown) => ClaudeToolView
}

/**
 * Writes the session's conversation as Claude Code's transcript: one JSONL line per prompt, assistant content block,
 * tool result and Stop-hook feedback, each chained to the line before by `parentUuid`. Lines are appended
 * synchronously, so a line is on disk before any later hook runs. Opening an existing file continues its chain.
 */
export class ClaudeTranscriptWriter {
  readonly path: string
  /** Whether the file was there before (a resumed session's transcript). */
  readonly existed: boolean
  /** Set when a write failed: nothing more is written. */
  stopped = false
  readonly #options: TranscriptWriterOptions
  #parent: string | null
  /** Each call's Claude tool name and the uuid of its `tool_use` line. */
  readonly #calls = new Map<string, { toolName: string; assistantUuid: string }>()
  /** Tools' own results (Bash's stdout/stderr object), by call, until their result line is written. */
  readonly #responses = new Map<string, unknown>()

  constructor(options: TranscriptWriterOptions) {
    this.#options = options
    this.path = options.path
    mkdirSync(dirname(options.path), { recursive: true })
    this.existed = existsSync(options.path)
    this.#parent = this.existed ? lastUuid(readFileSync(options.path, 'utf8')) : null
  }

  /** A tool's own result for `toolUseResult` (what the kernel logs is only its output text). */
  toolResponse(callId: string, response: unknown): void {
    this.#responses.set(callId, response)
  }

  /** A recorded session event: `message` and `tool/result` become lines; every other event is not conversation. */
  event(event: SessionEvent): void {
    if (event.type === 'message') this.message(event.message, event.at)
    if (event.type === 'tool/result') {
      this.message(
        {
          role: 'tool',
          content: [{ type: 'tool_result', callId: event.callId, output: event.output, isError: event.isError }],
          source: { kind: 'tool' },
        },
        event.at,
      )
    }
  }

  /** One conversation message as Claude Code's lines. Hook texts other than a Stop block's feedback are not written. */
  message(message: Message, timestamp: string): void {
    const { envelope } = this.#options
    switch (message.role) {
      case 'user': {
        const texts = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
        if (texts.length === 0) return
        const { promptId, permissionMode } = this.#options
        this.#append((place) => promptLine(place, envelope, { texts, promptId: promptId(), permissionMode: permissionMode() }), timestamp)
        return
      }
      case 'assistant':
        this.#assistant(message, timestamp)
        return
      case 'tool':
        for (const block of message.content) {
          if (block.type !== 'tool_result') continue
          const call = this.#calls.get(block.callId)
          const response = this.#responses.get(block.callId)
          this.#responses.delete(block.callId)
          this.#append(
            (place) =>
              toolResultLine(place, envelope, {
                toolUseId: block.callId,
                content: block.output,
                isError: block.isError,
                toolUseResult: response ?? block.output,
                promptId: this.#options.promptId(),
                sourceAssistantUuid: call?.assistantUuid,
              }),
            timestamp,
          )
        }
        return
      case 'developer': {
        const meta = hookTextMeta(message)
        if (meta?.kind !== 'stop') return
        const feedback = { event: meta.event, reason: stopFeedbackOf(meta, textOf(message)), promptId: this.#options.promptId() }
        this.#append((place) => stopFeedbackLine(place, envelope, feedback), timestamp)
        return
      }
    }
  }

  #assistant(message: Message, timestamp: string): void {
    const blocks: AssistantBlock[] = []
    for (const block of message.content) {
      if (block.type === 'text' && block.text !== '') blocks.push({ type: 'text', text: block.text })
      if (block.type === 'tool_call') {
        const view = this.#options.present(block.name, block.input)
        blocks.push({ type: 'tool_use', id: block.id, name: view.toolName, input: view.toolInput })
      }
    }
    if (blocks.length === 0) return
    const id = `msg_${randomUUID().replaceAll('-', '')}`
    const model = this.#options.model()
    const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'
    blocks.forEach((block, index) => {
      const uuid = this.#append(
        (place) =>
          assistantLine(place, this.#options.envelope, {
            id,
            model,
            block,
            stopReason: index === blocks.length - 1 ? stopReason : null,
          }),
        timestamp,
      )
      if (block.type === 'tool_use') this.#calls.set(block.id, { toolName: block.name, assistantUuid: uuid })
    })
  }

  #append(build: (place: LinePlace) => TranscriptLine, timestamp: string): string {
    const uuid = randomUUID()
    appendFileSync(this.path, `${JSON.stringify(build({ uuid, parentUuid: this.#parent, timestamp }))}\n`)
    this.#parent = uuid
    return uuid
  }
}

/** The `uuid` of the file's last line that has one: a continued transcript chains on from there. */
function lastUuid(text: string): string | null {
  const lines = text.split('\n')
  for (let index = lines.length - 1; index >= 0; index--) {
    try {
      const uuid = (JSON.parse(lines[index]!) as { uuid?: unknown }).uuid
      if (typeof uuid === 'string') return uuid
    } catch {
      // a blank or torn line
    }
  }
  return null
}
