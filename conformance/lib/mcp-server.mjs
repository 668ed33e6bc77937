// The MCP server of the conformance suites' MCP scenarios (both sides start it the way their
// configuration says), over stdio. Depends only on @modelcontextprotocol/sdk. Tools:
//   echo {text}  -> text `echo: <text>`
//   fail         -> isError, text `it broke`
//   weather      -> structuredContent {temperature: 21.5, unit: 'C'} and a text block `temperature 21.5 C`
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'what to echo' } }, required: ['text'] },
  },
  { name: 'fail', description: 'Fails.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'weather',
    description: 'The weather, structured.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: {
      type: 'object',
      properties: { temperature: { type: 'number' }, unit: { type: 'string' } },
      required: ['temperature', 'unit'],
    },
  },
]

const server = new Server({ name: 'conformance-fixture', version: '1.0.0' }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }))
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params
  switch (name) {
    case 'echo':
      return { content: [{ type: 'text', text: `echo: ${args.text}` }] }
    case 'fail':
      return { content: [{ type: 'text', text: 'it broke' }], isError: true }
    case 'weather': {
      const structuredContent = { temperature: 21.5, unit: 'C' }
      return { content: [{ type: 'text', text: 'temperature 21.5 C' }], structuredContent }
    }
    default:
      return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true }
  }
})
await server.connect(new StdioServerTransport())
