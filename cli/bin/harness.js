#!/usr/bin/env node
// The `harness` command. npm links this file when it installs, before anything is built, so it only
// picks what to load and says what to do when there is nothing built.
//
// A published package ships bundle/ (one file, fast to start). A run with a harness.config (or
// --config) loads dist/ instead: the config imports the packages from node_modules, and the CLI must
// share their module instances (`instanceof` of kernel errors, one copy of zod).
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

const args = process.argv.slice(2)
const flag = (name) => {
  const at = args.indexOf(name)
  if (at >= 0) return args[at + 1]
  return args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1)
}
const cwd = resolve(flag('--cwd') ?? '.')
const configured =
  flag('--config') !== undefined ||
  ['harness.config.mjs', 'harness.config.js', 'harness.config.ts', 'harness.config.mts'].some((name) => existsSync(resolve(cwd, name)))
const bundle = new URL('../bundle/bin.js', import.meta.url)
const built = new URL('../dist/bin.js', import.meta.url)
if (!configured && existsSync(bundle)) await import(bundle.href)
else if (existsSync(built)) await import(built.href)
else {
  process.stderr.write(
    'harness: the CLI is not built yet (cli/dist/bin.js is missing): run `npm run build` in the repository, then try again\n',
  )
  process.exit(1)
}
