#!/usr/bin/env node
import { flush } from './io.js'
import { runCli } from './main.js'

// A reader that goes away (`harness sessions list | head -1`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  process.exit(0)
})

const code = await runCli(process.argv.slice(2))
await Promise.all([flush(process.stdout), flush(process.stderr)])
// Exit even if a plugin left a handle open: the session has ended and the kernel is disposed.
process.exit(code)
