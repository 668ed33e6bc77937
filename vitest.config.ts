import { availableParallelism } from 'node:os'
import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'

// `source`: in-process imports of workspace packages load their src/*.ts, so a test sees the sources as they
// are (no stale dist/). Child processes (the CLI, the App Server) still run the build: `npm test` builds first.
const conditions = ['source', ...defaultServerConditions]
// These are Node's `--conditions` too (vitest passes them on), and Node then picks a package's `module` build, which may
// not load under Node: OpenTelemetry's import their own files without extensions. Node is left to resolve as it does
// outside the tests.
const nodeConditions = conditions.filter((condition) => condition !== 'module')

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions } },
  test: {
    // scripts/drift's pure parts are ES modules (the command runs without a build), and so are their tests
    include: ['**/test/**/*.test.ts', 'scripts/drift/test/*.test.mjs'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Bounds for a stuck test, not for a slow one: a loaded 2-core machine runs the slowest tests (real Claude Code
    // turns, stress runs) several times slower than a quiet one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // At least two files at a time (vitest's default is one fewer than the cores: one on a 2-core machine). Most tests
    // wait on child processes, so one worker left a core idle: the whole suite used 0.85 of 2 cores (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // `--conditions source` reaches Node too: what imports a package whose `source` export is TypeScript (the MCP
    // client, eventsource-parser) is transformed by vite instead.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(streamableHttp|sse)\.js/, /eventsource-parser/] } },
  },
})
