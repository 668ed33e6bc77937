import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'

// `source`: in-process imports of workspace packages load their src/*.ts, so a test sees the sources as they
// are (no stale dist/). Child processes (the CLI, the App Server) still run the build: `npm test` builds first.
const conditions = ['source', ...defaultServerConditions]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['**/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // `--conditions source` reaches Node too: what imports a package whose `source` export is TypeScript (the MCP
    // client, eventsource-parser) is transformed by vite instead.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(streamableHttp|sse)\.js/, /eventsource-parser/] } },
  },
})
