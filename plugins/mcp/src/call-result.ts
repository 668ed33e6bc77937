import type { ToolOutput } from '@harness-kernel/kernel'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

type Block = CallToolResult['content'][number]

/**
 * An MCP tool result as the model sees it. A result with `structuredContent` (not null) is its JSON alone, whatever
 * content blocks came with it: both Codex 0.169.0 and Claude Code show the model `JSON.stringify(structuredContent)`,
 * not the text block (conformance scenarios `codex/mcp-structured` and `claude-code/m02-mcp-structured`). Otherwise
 * text blocks as they are, one per paragraph; what a text model cannot take (images, audio) as a marker naming it;
 * resources by their text or URI. The result itself stays in `details` for dialects (Claude Code's `tool_response`,
 * Codex's PostToolUse `tool_response`) and observers.
 */
export function callResultOutput(result: CallToolResult): ToolOutput {
  const structured = result.structuredContent
  const output =
    structured !== undefined && structured !== null ? JSON.stringify(structured) : (result.content ?? []).map(blockText).join('\n\n')
  return {
    output,
    isError: result.isError === true,
    details: {
      content: result.content ?? [],
      ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    },
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`
    case 'resource_link':
      return `[resource: ${block.uri}${block.name ? ` (${block.name})` : ''}]`
    case 'resource': {
      const resource = block.resource
      return 'text' in resource && typeof resource.text === 'string'
        ? resource.text
        : `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`
    }
    default:
      return `[${(block as { type: string }).type}]`
  }
}

const base64Bytes = (data: string) => Math.floor((data.replace(/=+$/, '').length * 3) / 4)
