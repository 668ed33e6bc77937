#!/usr/bin/env node
// The `harness` command. npm links this file when it installs, before anything is built, so it only
// picks what to load and says what to do when there is nothing built.
//
// A published package ships bundle/ (one file and lazy chunks, fast to start). In the repository, the build writes
// dist-bundle/ (scripts/bundle.mjs --workspace) with the stamps of the builds it was made from; it runs only while
// they hold, so a package rebuilt since (`tsc -b`) runs from dist/ until the next `npm run build`. A run with a
// harness.config (or --config) always loads dist/: the config imports the packages from node_modules, and the CLI
// must share their module instances (`instanceof` of kernel errors, one copy of zod).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
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
const workspaceBundle = new URL('../dist-bundle/', import.meta.url)
const built = new URL('../dist/bin.js', import.meta.url)

/** Whether every stamp in `dir`/sources.json (a path from `dir`, its size and mtime) still holds. */
function current(dir) {
  let sources
  try {
    sources = JSON.parse(readFileSync(new URL('sources.json', dir), 'utf8')).sources
  } catch {
    return false
  }
  return sources.every(([path, size, mtimeMs]) => {
    const stat = statSync(new URL(path, dir), { throwIfNoEntry: false })
    return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs
  })
}

/** dist/bin.js, its module graph loaded first through require() (Node 20.19+ loads ES modules that way too). */
function unbundled() {
  // Synchronous reads: ~15% less CPU for dist/'s ~480 modules than import()'s asynchronous ones, and the same module
  // instances, which the import of bin.js then finds. A graph require() cannot load (top-level await) is left to it.
  try {
    createRequire(import.meta.url)('../dist/main.js')
  } catch {}
  return built
}

const entry =
  !configured && existsSync(bundle)
    ? bundle
    : !configured && current(workspaceBundle)
      ? new URL('bin.js', workspaceBundle)
      : existsSync(built)
        ? unbundled()
        : undefined
if (entry === undefined) {
  process.stderr.write(
    'harness: the CLI is not built yet (cli/dist/bin.js is missing): run `npm run build` in the repository, then try again\n',
  )
  process.exit(1)
}
await import(entry.href)
