export {
  type ContinuationFragment,
  type GateDecision,
  type MergedDecision,
  type MergeRun,
  mergeGate,
  mergeOutcomes,
  mergePermissionRequest,
  mergePostToolUse,
  mergePreToolUse,
  mergeStop,
  type PermissionRequestDecision,
  type PostToolUseDecision,
  type PreToolUseDecision,
  type StopDecision,
} from './merge.js'
export {
  emptyOutcome,
  type HandlerOutcome,
  type HandlerRun,
  type HookOutputEntry,
  type HookRunStatus,
  type PermissionVerdict,
} from './outcome.js'
export * from './output-texts.js'
export { parseHandlerOutput } from './parse-output.js'
export { type CodexPayloadFields, codexPayload } from './payload.js'
export { escapeHookPrompt, hookPromptText, hookRunId, permissionDeniedText, preToolUseBlockText } from './render.js'
export {
  approxTokenCount,
  DEFAULT_CONTEXT_LIMIT,
  formattedTruncateText,
  type SpillOptions,
  type SpillResult,
  spillIfLarge,
} from './spill.js'
export { commandOf, type PresentedTool, presentTool, toolResponseFor } from './tool-presentation.js'
