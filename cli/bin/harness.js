#!/usr/bin/env node
// The `harness` command. npm links this file when it installs, before anything is built, so it only
// loads the built CLI and says what to do when there is none.
import { existsSync } from 'node:fs'

const built = new URL('../dist/bin.js', import.meta.url)
if (!existsSync(built)) {
  process.stderr.write(
    'harness: the CLI is not built yet (cli/dist/bin.js is missing): run `npm run build` in the repository, then try again\n',
  )
  process.exit(1)
}
await import(built.href)
