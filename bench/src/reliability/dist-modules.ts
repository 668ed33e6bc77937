import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * file: URLs of the built packages (`tsc -b`), for child processes: they run the build, as a user's process would.
 * This file sits at the same depth in bench/src and bench/dist, so the paths hold for both.
 */
const built = (path: string) => pathToFileURL(fileURLToPath(new URL(`../../../${path}`, import.meta.url))).href

export const DIST = {
  kernel: built('kernel/dist/index.js'),
  tools: built('plugins/tools/dist/index.js'),
  codex: built('dialects/codex/dist/index.js'),
  claudeCode: built('dialects/claude-code/dist/index.js'),
  zod: built('node_modules/zod/index.js'),
}
