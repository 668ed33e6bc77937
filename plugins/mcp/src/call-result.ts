import type { ToolOutput } from '@harness-kernel/kernel'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

type Block = CallToolResult['content'][number]

/**
 * An MCP tool result as the model sees it: text blocks as they are, one per paragraph; what a text model cannot take
 * (images, audio) as a marker naming it; resources by their text or URI; `structuredContent` as JSON when the server
 * sent no content. The result itself stays in `details` for dialects (Claude Code's `tool_response`) and observers.
 */
export function callResultOutput(result: CallToolResult): ToolOutput {
  const parts = (result.content ?? []).map(blockText)
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  return {
    output: parts.join('\n\n'),
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
