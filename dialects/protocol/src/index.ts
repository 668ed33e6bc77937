export {
  capHookText,
  excerptHookText,
  HOOK_RECORD_EXCERPT_BYTES,
  HOOK_TEXT_HEAD_BYTES,
  HOOK_TEXT_TAIL_BYTES,
  joinExcerpt,
  truncationMarker,
} from './command/cap-hook-text.js'
export type { HookCommandResult, HookCommandSpec } from './command/hook-command.js'
export { hookCommandRunOptions, runHookCommand, runHookCommands } from './command/run-hook-commands.js'
export { canonicalJson, compareUtf8 } from './json/canonical-json.js'
export { sha256Hex } from './json/sha256-hex.js'
export { type CompiledMatcher, compileMatcher, type MatcherMode } from './matcher/compile-matcher.js'
export { rustDebugString } from './matcher/rust-debug-string.js'
export { type RustRegexSpan, rustRegexError } from './matcher/rust-regex-error.js'
export { type RustRegexTranslation, translateRustRegex } from './matcher/translate-rust-regex.js'
export { JsonFileTrustStore } from './trust/json-file-trust-store.js'
export { MemoryTrustStore } from './trust/memory-trust-store.js'
export type { TrustEntry, TrustStore } from './trust/trust-store.js'
