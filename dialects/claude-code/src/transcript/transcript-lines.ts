import type { PermissionMode } from '../io/payload.js'

/** The Claude Code version whose transcript lines these follow (`version` on every line). */
export const TRANSCRIPT_FORMAT_VERSION = '2.1.332'

/** What every line carries after its own fields, in Claude Code's order. */
export interface LineEnvelope {
  sessionId: string
  cwd: string
  entrypoint: string
}

/** Where a line sits: its own uuid, the line before it, when it was recorded. */
export interface LinePlace {
  uuid: string
  parentUuid: string | null
  timestamp: string
}

export type TranscriptLine = Record<string, unknown>

function tail(envelope: LineEnvelope): TranscriptLine {
  return {
    userType: 'external',
    entrypoint: envelope.entrypoint,
    cwd: envelope.cwd,
    sessionId: envelope.sessionId,
    version: TRANSCRIPT_FORMAT_VERSION,
  }
}

/** A prompt: `message.content` is the text itself when it is one text, else Claude's text blocks. */
export function promptLine(
  place: LinePlace,
  envelope: LineEnvelope,
  prompt: { texts: readonly string[]; promptId: string | undefined; permissionMode: PermissionMode },
): TranscriptLine {
  const content = prompt.texts.length === 1 ? prompt.texts[0] : prompt.texts.map((text) => ({ type: 'text', text }))
  return {
    parentUuid: place.parentUuid,
    isSidechain: false,
    promptId: prompt.promptId,
    type: 'user',
    message: { role: 'user', content },
    uuid: place.uuid,
    timestamp: place.timestamp,
    permissionMode: prompt.permissionMode,
    ...tail(envelope),
  }
}

/** A Claude content block of an assistant message. */
export type AssistantBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }

/**
 * One line of an assistant message: Claude Code writes one line per content block, all with the message's `id`; the
 * message's `stop_reason` is on its last line (earlier ones: null).
 */
export function assistantLine(
  place: LinePlace,
  envelope: LineEnvelope,
  message: { id: string; model: string; block: AssistantBlock; stopReason: 'tool_use' | 'end_turn' | null },
): TranscriptLine {
  return {
    parentUuid: place.parentUuid,
    isSidechain: false,
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [message.block],
      stop_reason: message.stopReason,
      stop_sequence: null,
    },
    type: 'assistant',
    uuid: place.uuid,
    timestamp: place.timestamp,
    ...tail(envelope),
  }
}

/**
 * A tool result: `toolUseResult` is the tool's own result (Bash: `{stdout, stderr, interrupted, isImage,
 * noOutputExpected}`), or `Error: <content>` for a failed or denied call, as Claude Code writes them.
 */
export function toolResultLine(
  place: LinePlace,
  envelope: LineEnvelope,
  result: {
    toolUseId: string
    content: string
    isError: boolean
    toolUseResult: unknown
    promptId: string | undefined
    sourceAssistantUuid: string | undefined
  },
): TranscriptLine {
  const block = result.isError
    ? { type: 'tool_result', content: result.content, is_error: true, tool_use_id: result.toolUseId }
    : { tool_use_id: result.toolUseId, type: 'tool_result', content: result.content, is_error: false }
  return {
    parentUuid: place.parentUuid,
    isSidechain: false,
    promptId: result.promptId,
    type: 'user',
    message: { role: 'user', content: [block] },
    uuid: place.uuid,
    timestamp: place.timestamp,
    toolUseResult: result.isError ? `Error: ${result.content}` : result.toolUseResult,
    sourceToolAssistantUUID: result.sourceAssistantUuid,
    ...tail(envelope),
  }
}

/** A Stop/SubagentStop block's feedback, a meta user line: `<Event> hook feedback:\n<reason>`. */
export function stopFeedbackLine(
  place: LinePlace,
  envelope: LineEnvelope,
  feedback: { event: string; reason: string; promptId: string | undefined },
): TranscriptLine {
  return {
    parentUuid: place.parentUuid,
    isSidechain: false,
    promptId: feedback.promptId,
    type: 'user',
    message: { role: 'user', content: `${feedback.event} hook feedback:\n${feedback.reason}` },
    isMeta: true,
    uuid: place.uuid,
    timestamp: place.timestamp,
    ...tail(envelope),
  }
}
