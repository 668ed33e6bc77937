#!/usr/bin/env node
// Bundles the built CLI (dist/) for a fast start: one file and a few lazily loaded chunks start much faster than the
// ~480 ES modules of dist/ (Node 20 has no compile cache). Programs and SDKs loaded only for some runs stay outside.
//
//   node scripts/bundle.mjs [outdir]     the published bundle (`npm pack`), into bundle/ or outdir
//   node scripts/bundle.mjs --workspace  the workspace's bundle, into dist-bundle/, with the stamps of what it was
//                                        built from (sources.json): bin/harness.js runs it only while they still hold
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const cli = join(dirname(fileURLToPath(import.meta.url)), '..')
const workspace = process.argv[2] === '--workspace'
const require = createRequire(join(cli, 'package.json'))

let esbuild
try {
  esbuild = await import(require.resolve('esbuild'))
} catch (error) {
  if (!workspace) throw error
  // An install without dev dependencies has no bundler; the CLI then runs dist/, as it does when the bundle is stale.
  process.stderr.write(`harness bundle: skipped, esbuild is not installed (${error.message.split('\n')[0]})\n`)
  process.exit(0)
}

const final = workspace ? join(cli, 'dist-bundle') : resolve(process.argv[2] ?? join(cli, 'bundle'))
// The workspace's bundle is built aside and swapped in, so a run never sees half of one.
const outdir = workspace ? join(cli, `.bundle-tmp-${process.pid}`) : final
const started = Date.now()
rmSync(outdir, { recursive: true, force: true })
try {
  const result = await esbuild.build({
    entryPoints: entryPoints(),
    outdir,
    absWorkingDir: cli,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: workspace,
    plugins: [zodEnglishOnly()],
    // CommonJS dependencies inside an ES module bundle still call require() for Node's builtins.
    banner: { js: "import { createRequire as __harnessRequire } from 'node:module'; const require = __harnessRequire(import.meta.url);" },
    // The Codex driver stays a package of its own: it finds the Codex binary next to itself, and when it is not installed
    // `--driver codex` says how to install it.
    external: [
      '@anthropic-ai/claude-agent-sdk',
      '@anthropic-ai/claude-agent-sdk-*',
      '@modelcontextprotocol/sdk',
      '@harness-kernel/driver-codex',
      'tsx',
      'esbuild',
      // pg's optional native binding (libpq), never used: the store runs on pg's JavaScript client.
      'pg-native',
    ],
  })
  if (workspace) {
    const stamps = sourceStamps(Object.keys(result.metafile.inputs))
    const changed = stamps.find((stamp) => stamp.mtimeMs >= started)
    if (changed) {
      // Written while the bundle was built: what it holds may be older. No bundle beats a stale one.
      process.stderr.write(`harness bundle: ${changed.file} changed during the build; no workspace bundle (the CLI runs dist/)\n`)
      rmSync(outdir, { recursive: true, force: true })
      rmSync(final, { recursive: true, force: true })
      process.exit(0)
    }
    const sources = stamps.map(({ file, size, mtimeMs }) => [relative(final, file).split(sep).join('/'), size, mtimeMs])
    writeFileSync(join(outdir, 'sources.json'), `${JSON.stringify({ sources })}\n`)
    const old = join(cli, `.bundle-old-${process.pid}`)
    if (existsSync(final)) renameSync(final, old)
    renameSync(outdir, final)
    rmSync(old, { recursive: true, force: true })
  }
} catch (error) {
  if (workspace) rmSync(outdir, { recursive: true, force: true })
  throw error
}

/**
 * zod's locales are a third of its code, and every one loads with `z`. Nothing the bundle holds calls `z.locales`, and
 * the bundle's zod is the CLI's own (a run with a harness.config loads dist/, sharing the project's zod): it keeps
 * English, the locale zod sets itself.
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(build) {
      build.onResolve({ filter: /\/locales\/index\.js$/ }, ({ path, resolveDir }) => {
        const file = resolve(resolveDir, path)
        return file.includes(`${sep}node_modules${sep}zod${sep}`) ? { path: file, namespace: 'zod-english-only' } : undefined
      })
      build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
        contents: `export { default as en } from ${JSON.stringify(join(dirname(path), 'en.js'))}\n`,
        resolveDir: dirname(path),
      }))
    },
  }
}

/**
 * The CLI, and beside it the scripts the bundle's code starts by their path, found next to its own code: the kernel's
 * process launcher (`launcher-main.js`) and the telemetry's export thread (`telemetry-worker.js`).
 */
function entryPoints() {
  const entries = { bin: join(cli, 'dist', 'bin.js') }
  const launcher = join(dirname(require.resolve('@harness-kernel/kernel')), 'process', 'launcher', 'launcher-main.js')
  if (existsSync(launcher)) entries['launcher-main'] = launcher
  const telemetryWorker = join(dirname(require.resolve('@harness-kernel/telemetry')), 'worker', 'telemetry-worker.js')
  if (existsSync(telemetryWorker)) entries['telemetry-worker'] = telemetryWorker
  return entries
}

/**
 * What stands for each input when bin/harness.js checks the bundle: a workspace package's `dist/.tsbuildinfo`, which
 * `tsc -b` rewrites whenever it builds that package, and npm's `node_modules/.package-lock.json`, which every install
 * rewrites; a file covered by neither stands for itself. A few stats instead of ~1,000 at each start.
 */
function sourceStamps(inputs) {
  const files = new Set()
  for (const input of inputs) {
    // A module a plugin made (`namespace:path`) has no file of its own; what it names is stamped with its package.
    if (/^[\w-]+:/.test(input)) continue
    const file = resolve(cli, input)
    const modules = file.indexOf(`${sep}node_modules${sep}`)
    const dist = file.lastIndexOf(`${sep}dist${sep}`)
    const stamp =
      modules >= 0
        ? join(file.slice(0, modules), 'node_modules', '.package-lock.json')
        : dist >= 0
          ? join(file.slice(0, dist), 'dist', '.tsbuildinfo')
          : file
    files.add(existsSync(stamp) ? stamp : file)
  }
  return [...files].map((file) => {
    const { size, mtimeMs } = statSync(file)
    return { file, size, mtimeMs }
  })
}
