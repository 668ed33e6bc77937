import { type KernelApi, type Session, STAGE_GUARD } from '@harness-kernel/kernel'
import { presentTool, toolResponse } from '../io/tool-presentation.js'
import type { ClaudeSessionState } from '../plugin/session-state.js'
import { claudeView, type TapContext } from '../plugin/tap-context.js'
import { PLUGIN_NAME } from '../render/hook-text.js'
import { defaultTranscriptDir, transcriptFile } from './transcript-dir.js'
import { ClaudeTranscriptWriter } from './transcript-writer.js'

export interface TranscriptPlace {
  /** Where transcripts go; default `<configDir>/projects/<munged project dir>`. */
  transcriptDir: string | undefined
  configDir: string
}

/**
 * Opens the session's Claude Code transcript, `<transcriptDir>/<sessionId>.jsonl` (a resumed session continues its
 * file; one resumed without a file gets the conversation so far first). When the file cannot be opened, a warning
 * says so and hooks get the kernel's log.
 */
export function openTranscript(
  ctx: TapContext,
  session: Session,
  state: ClaudeSessionState,
  place: TranscriptPlace,
  source: string,
): ClaudeTranscriptWriter | undefined {
  const dir = place.transcriptDir ?? defaultTranscriptDir(place.configDir, state.loaded.projectDir)
  const path = transcriptFile(dir, session.id)
  try {
    const writer = new ClaudeTranscriptWriter({
      path,
      envelope: { sessionId: session.id, cwd: session.cwd, entrypoint: ctx.entrypoint },
      permissionMode: () => state.permissions.payloadMode(session),
      model: () => ctx.model()?.id ?? 'unknown',
      promptId: () => state.promptId,
      present: (name, input) => presentTool(name, input, ctx.tools.get(name)?.aliases, session.cwd),
    })
    if (!writer.existed && source === 'resume') {
      const now = new Date().toISOString()
      for (const message of session.messages) writer.message(message, now)
    }
    return writer
  } catch (error) {
    session.notice(
      'warning',
      `cannot write the Claude Code transcript ${path} (${errorText(error)}); hooks get the kernel's log`,
      PLUGIN_NAME,
    )
    return undefined
  }
}

/**
 * Feeds each session's writer: every recorded event (synchronously, so a line is on disk before any later hook
 * runs), and each tool's own result (Bash's stdout/stderr object) for `toolUseResult`, taken before any other tap.
 */
export function tapTranscript(kernel: KernelApi, ctx: TapContext): void {
  const name = `${PLUGIN_NAME}:transcript`
  kernel.hooks.sessionEvent.tap(name, ({ session, event }) => {
    const writer = ctx.states.get(session)?.transcript
    if (!writer || writer.stopped) return
    try {
      writer.event(event)
    } catch (error) {
      writer.stopped = true
      session.notice('warning', `stopped writing the Claude Code transcript ${writer.path}: ${errorText(error)}`, PLUGIN_NAME)
    }
  })
  kernel.hooks.toolPostExecute.tap({ name, stage: STAGE_GUARD }, (decision, { session, call, result }) => {
    const writer = ctx.states.get(session)?.transcript
    if (writer && !result.isError) {
      const view = claudeView(ctx, session, call)
      writer.toolResponse(call.id, toolResponse(view.toolName, result, view.toolInput))
    }
    return decision
  })
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
