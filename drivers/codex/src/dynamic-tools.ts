import type { ToolOutput, ToolSpec } from '@harness-kernel/kernel'

/** `thread/start.dynamicTools`: the kernel's tools, their JSON Schema kept as is. */
export function dynamicTools(specs: readonly ToolSpec[]): { type: 'function'; name: string; description: string; inputSchema: unknown }[] {
  return specs.map((spec) => ({ type: 'function', name: spec.name, description: spec.description, inputSchema: spec.inputSchema }))
}

/** The answer to `item/tool/call`: a denial or failure is `success: false`, its text still reaches the model. */
export function toolCallAnswer(
  result: ToolOutput,
  context: readonly string[] = [],
): {
  contentItems: { type: 'inputText'; text: string }[]
  success: boolean
} {
  return {
    contentItems: [result.output, ...context].map((text) => ({ type: 'inputText', text })),
    success: !result.isError,
  }
}

/**
 * Codex 0.169.0's built-ins the app-server protocol cannot intercept (drivers.md §2.2), as they remain
 * with the driver's default switches: the model sees them beside the kernel's tools.
 */
export const UNINTERCEPTABLE_BUILTINS = [
  'request_user_input',
  'view_image',
  'get_goal',
  'create_goal',
  'update_goal',
  'web_search',
] as const
