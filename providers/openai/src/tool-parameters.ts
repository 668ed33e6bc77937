import type { ToolSpec } from '@harness-kernel/kernel'

/** A tool's JSON Schema as function `parameters`: without the `$schema` key, which some compatible servers refuse. */
export function toolParameters(tool: ToolSpec): Record<string, unknown> {
  const { $schema: _schema, ...parameters } = tool.inputSchema
  return parameters
}
