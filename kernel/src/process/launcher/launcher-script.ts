import { fileURLToPath } from 'node:url'

/**
 * The launcher's script: `launcher-main.js` beside this module once built, in kernel/dist/process/launcher/ or in the
 * CLI's bundle (an entry of its own there). Loaded from the TypeScript sources (the `source` export condition, as under
 * vitest) this module is a `.ts` file, and the launcher must still run the build: the same path in kernel/dist.
 */
export function launcherScript(): string {
  const here = import.meta.url
  const built = here.endsWith('.ts') ? '../../../dist/process/launcher/launcher-main.js' : './launcher-main.js'
  return fileURLToPath(new URL(built, here))
}
