#!/usr/bin/env node
// `npm run drift`: installs the newest published Codex and Agent SDK (or the versions given) into a scratch folder,
// runs the saved conformance scenarios and the App Server schema check against them, and reports what changed against
// the pins as tables. Exit 0 when it ran (drift is information), 1 when a part could not run, 2 on a bad option.
// See CONTRIBUTING.md, "Drift".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  CODEX_PACKAGE,
  claudeCodeVersionOf,
  claudeNativeIn,
  codexNativeIn,
  pinnedClaudeVersion,
  pinnedCodexVersion,
  pinnedSdkVersion,
  SDK_PACKAGE,
  sdkPackageDir,
} from '../../conformance/lib/pinned-clients.mjs'
import { makeTempRoot, REPO_ROOT } from '../../conformance/lib/real-clients.mjs'
import { generateSchema, newestFixture } from './codex-schema.mjs'
import { DriftError } from './drift-error.mjs'
import { constList, schemaHookEvents } from './event-lists.mjs'
import { diffLists } from './list-diff.mjs'
import { parseOptions, USAGE } from './options.mjs'
import { newestVersion } from './registry.mjs'
import { renderDriftReport } from './report.mjs'
import { diffSchemas } from './schema-diff.mjs'
import { defaultFolder, installClient } from './scratch-install.mjs'
import { readScenarioDrift, runRealSide, SUITES } from './suite-run.mjs'

let options
try {
  options = parseOptions(process.argv.slice(2))
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`)
  process.exit(2)
}
if (options.help) {
  console.log(USAGE)
  process.exit(0)
}
const wants = (part) => options.only.includes(part)
const out = options.out ?? makeTempRoot('drift-')
mkdirSync(out, { recursive: true })

const readText = (file) => readFileSync(file, 'utf8')
const sdkManifest = (from) => JSON.parse(readText(join(sdkPackageDir(from), 'package.json')))
const problems = []
const events = []
const suites = []
const titles = []
const header = [`report and the suites' runs: ${out}`]
let schema

/** Runs `part`; a part that could not run is reported, and the others still run. */
async function attempt(part, fn) {
  try {
    await fn()
  } catch (error) {
    // a list or schema that no longer reads as expected is a part that could not run, not a crash of the others
    const message = error instanceof DriftError ? error.message : `${error.name}: ${error.message}`
    problems.push(`${part}: ${message}`)
    process.stderr.write(`drift: ${part}: ${message}\n`)
  }
}

/** The version to check (the option, else the newest published) installed in its scratch folder. */
async function install(pkg, option, binaryIn) {
  const version = option ?? (await newestVersion(pkg))
  const installed = await installClient({ pkg, version, folder: options.dir ?? defaultFolder(pkg, version), binaryIn })
  header.push(`${pkg}@${version}: ${installed.bin} (${installed.reused ? 'installed before, reused' : 'installed now'})`)
  return { version, ...installed }
}

/** The real side of a suite against `bin`, and each scenario's drift from its saved result. */
async function suiteDrift(key, bin, pin, version) {
  const suite = SUITES[key]
  const dir = join(out, suite.dir)
  const { report } = await runRealSide(suite, { bin, out: dir, jobs: options.jobs })
  suites.push({ client: suite.client, pin, version, scenarios: await readScenarioDrift(suite, dir), report })
}

if (wants('codex') || wants('schema'))
  await attempt('Codex', async () => {
    const pin = pinnedCodexVersion()
    const codex = await install(CODEX_PACKAGE, options.codex, codexNativeIn)
    titles.push(`Codex ${pin} → ${codex.version}`)
    if (wants('schema')) {
      const fixture = newestFixture()
      const fresh = generateSchema(codex.bin)
      schema = { from: fixture.version, to: codex.version, diff: diffSchemas(fixture.schema, fresh) }
      events.push({
        client: 'Codex',
        compared: `schema HookEventName ${fixture.version} → ${codex.version}`,
        ...diffLists(schemaHookEvents(fixture.schema), schemaHookEvents(fresh)),
      })
      const dialect = constList(readText(join(REPO_ROOT, 'dialects', 'codex', 'src', 'events.ts')), 'CODEX_EVENTS')
      events.push({
        client: 'Codex',
        compared: `dialect CODEX_EVENTS → schema ${codex.version}`,
        ...diffLists(dialect, schemaHookEvents(fresh)),
      })
    }
    if (wants('codex')) await suiteDrift('codex', codex.bin, pin, codex.version)
  })

if (wants('claude-code'))
  await attempt('Claude Code', async () => {
    const pin = pinnedClaudeVersion()
    const sdk = await install(SDK_PACKAGE, options.sdk, claudeNativeIn)
    const claude = claudeCodeVersionOf(sdkManifest(sdk.from))
    titles.push(`Claude Code ${pin} → ${claude}`)
    const workspaceFrom = join(REPO_ROOT, 'drivers', 'claude-code', 'package.json')
    const workspaceSdk = sdkManifest(workspaceFrom).version
    if (workspaceSdk !== pinnedSdkVersion())
      header.push(`WARNING: the workspace has SDK ${workspaceSdk} installed, not the pin ${pinnedSdkVersion()} (run npm install)`)
    const hookEvents = (from) => constList(readText(join(sdkPackageDir(from), 'sdk.d.ts')), 'HOOK_EVENTS')
    const fresh = hookEvents(sdk.from)
    events.push({
      client: 'Claude Code',
      compared: `SDK HOOK_EVENTS ${workspaceSdk} → ${sdk.version}`,
      ...diffLists(hookEvents(workspaceFrom), fresh),
    })
    const dialect = constList(readText(join(REPO_ROOT, 'dialects', 'claude-code', 'src', 'events.ts')), 'CLAUDE_EVENTS')
    events.push({ client: 'Claude Code', compared: `dialect CLAUDE_EVENTS → SDK ${sdk.version}`, ...diffLists(dialect, fresh) })
    await suiteDrift('claude-code', sdk.bin, pin, claude)
  })

const report = renderDriftReport({
  title: `Drift: ${titles.join(', ') || 'nothing ran'}`,
  header: [...header, `checked ${new Date().toISOString()}; saved results: conformance/<suite>/expected/`],
  events,
  suites,
  schema,
  problems,
})
writeFileSync(join(out, 'drift-report.md'), `${report}\n`)
writeFileSync(join(out, 'drift.json'), `${JSON.stringify({ events, suites, schema, problems }, null, 2)}\n`)
console.log(report)
process.exit(problems.length ? 1 : 0)
