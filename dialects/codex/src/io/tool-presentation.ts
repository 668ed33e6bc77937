/** A kernel tool call as Codex hooks see it. */
export interface PresentedTool {
  /** `tool_name` in the payload. */
  toolName: string
  /** `tool_input` in the payload. */
  toolInput: unknown
  /** Names a matcher may select it by, `toolName` first. */
  matchNames: string[]
}

/** Codex's apply_patch also answers to `Write` and `Edit`; the kernel's file tools take one alias each [unverified]. */
const EXTRA_MATCH_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['write_file', ['Write']],
  ['edit_file', ['Edit']],
])

/**
 * How a kernel tool call is presented to Codex hooks (codex-hooks.md §3 "Kernel tools", §5.2). The tool's Codex alias
 * (`aliases.codex`) names it; a tool named `Bash` is a shell, sent as `{"command": <string>}` only, the model's other
 * arguments (timeout, workdir, …) dropped. Other tools keep their raw input.
 */
export function presentTool(call: { name: string; input: unknown }, aliases?: { codex?: string | undefined }): PresentedTool {
  const toolName = aliases?.codex ?? call.name
  const toolInput = toolName === 'Bash' ? { command: commandOf(call.input) } : call.input
  return { toolName, toolInput, matchNames: [toolName, ...(EXTRA_MATCH_NAMES.get(toolName) ?? [])] }
}

/** The command a shell call runs, for the payload and the PreToolUse block text. */
export function commandOf(input: unknown): string {
  if (typeof input === 'object' && input !== null && 'command' in input && typeof input.command === 'string') return input.command
  return ''
}

/**
 * `tool_response` for PostToolUse: the model-visible output text as it is (a kernel `ToolOutput`'s `output`, or the
 * text). For a shell Codex sends only the merged stdout/stderr text, without exit code or headers; the kernel shell's
 * text keeps its `[stderr]` / `[exit code: N]` notes for now. Function tools: the raw result string, as in Codex.
 */
export function toolResponseFor(_toolName: string, output: string | { output: string }): string {
  return typeof output === 'string' ? output : output.output
}
