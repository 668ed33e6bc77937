#!/usr/bin/env node
// Uses the packages as a user would: packs every public workspace package, installs the tarballs into new
// projects outside the repository (one ES module project, one CommonJS project), and there type-checks and runs
// a TypeScript file that composes a kernel and one that tests with the testing kit, runs `npx harness run` and a
// `harness.config` of the project's own.
// Needs the npm registry for third-party dependencies (the cache of `npm ci` serves most of them).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const keep = process.argv.includes('--keep')
const work = mkdtempSync(join(tmpdir(), 'harness-packed-'))
const tarballs = join(work, 'tarballs')
mkdirSync(tarballs)
const say = (line) => process.stdout.write(`${line}\n`)
const run = (cmd, args, cwd, env = {}) => {
  try {
    return execFileSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }
}
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const versionOf = (name) => rootPackage.devDependencies[name]

// 1. Pack every public package (its prepack builds it).
const folders = rootPackage.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(pattern.slice(0, -2), entry.name))
    : [pattern],
)
const published = folders
  .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private)
for (const { folder } of published) run('npm', ['pack', '--silent', '--pack-destination', tarballs], join(root, folder))
const packed = readdirSync(tarballs).map((name) => join(tarballs, name))
say(`packed ${packed.length} packages into ${relative(process.cwd(), tarballs) || tarballs}`)
for (const file of packed) {
  const listing = run('tar', ['-tzf', file], work)
  if (listing.includes('.tsbuildinfo')) throw new Error(`${file} ships a build-info file`)
}

// The Claude Code and Codex drivers each bring a 400 MB binary and are optional peers of the CLI: the projects leave them out.
const installed = packed.filter((file) => !file.includes('driver-claude-code') && !file.includes('driver-codex'))

const main = `import { createKernel, definePlugin } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

const noRm = definePlugin({
  name: 'no-rm',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tap('no-rm', (decision, { call }) =>
      JSON.stringify(call.input).includes('rm -rf') ? { kind: 'deny', reason: 'no rm -rf here' } : decision,
    )
  },
})

async function main(): Promise<void> {
  const model = scriptedModel({
    script: [{ tool_calls: [{ name: 'shell', input: { command: 'rm -rf /' } }] }, { text: 'refused, as it should be' }],
  })
  const kernel = createKernel([model, tools(), noRm], { sessionsDir: '.harness/sessions' })
  const session = await kernel.startSession()
  const result = await session.run('clean up')
  const denied = session.messages.some((message) => message.content.some((block) => block.type === 'tool_result' && block.output === 'no rm -rf here'))
  console.log(\`status=\${result.status} denied=\${denied} answer=\${result.lastAssistantMessage}\`)
  await kernel.dispose()
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
`

// The testing kit as a plugin's author uses it: a fake Messages API, and a kernel turn in a temporary project.
const kit = `import { anthropicModel } from '@harness-kernel/anthropic'
import { runKernelTurn, startFakeAnthropic } from '@harness-kernel/testing'

async function main(): Promise<void> {
  const server = await startFakeAnthropic()
  server.reply({ text: 'hello from the fake' })
  const turn = await runKernelTurn({
    prompt: 'hi',
    plugins: [anthropicModel({ model: 'claude-test', baseURL: server.baseURL, apiKey: 'test-key' })],
  })
  await server.close()
  console.log(\`kit: status=\${turn.status} text=\${turn.text} requests=\${server.requests.length}\`)
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
`

const config = `import { defineConfig } from '@harness-kernel/cli'
import { definePlugin } from '@harness-kernel/kernel'

export default defineConfig({
  model: 'scripted:script.json',
  plugins: ({ defaults }) => [
    ...defaults,
    definePlugin({
      name: 'config-policy',
      setup(kernel) {
        kernel.hooks.toolPreExecute.tap('config-policy', (decision) => ({ kind: 'deny', reason: 'denied by harness.config' }))
      },
    }),
  ],
})
`

const script = JSON.stringify([{ tool_calls: [{ name: 'shell', input: { command: 'echo hi' } }] }, { text: 'config run done' }])

for (const kind of ['module', 'commonjs']) {
  const project = join(work, kind)
  mkdirSync(project)
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: `packed-${kind}`, version: '1.0.0', private: true, ...(kind === 'module' ? { type: 'module' } : {}) }, null, 2)}\n`,
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts', '*.mts'],
    }),
  )
  writeFileSync(join(project, 'main.ts'), main)
  writeFileSync(join(project, 'kit.ts'), kit)
  // A .ts config is TypeScript in the package's own module kind; a CommonJS package names its ES module config .mts.
  writeFileSync(join(project, kind === 'module' ? 'harness.config.ts' : 'harness.config.mts'), config)
  writeFileSync(join(project, 'script.json'), script)
  run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      ...installed,
      `typescript@${versionOf('typescript')}`,
      `@types/node@${versionOf('@types/node')}`,
    ],
    project,
  )

  run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project)
  const ran = run(process.execPath, ['--import', 'tsx', 'main.ts'], project)
  if (!ran.includes('status=completed denied=true answer=refused, as it should be')) throw new Error(`${kind}: main.ts printed:\n${ran}`)
  say(`${kind}: main.ts type-checks and runs: ${ran.trim()}`)
  const kitRan = run(process.execPath, ['--import', 'tsx', 'kit.ts'], project)
  if (!kitRan.includes('kit: status=completed text=hello from the fake requests=1')) throw new Error(`${kind}: kit.ts printed:\n${kitRan}`)
  say(`${kind}: kit.ts (@harness-kernel/testing) type-checks and runs: ${kitRan.trim()}`)

  const help = run('npx', ['--no-install', 'harness', '--help'], project)
  if (!help.includes('Usage: harness')) throw new Error(`${kind}: npx harness --help printed:\n${help}`)
  const runOut = run('npx', ['--no-install', 'harness', 'run', 'say hi'], project, { HARNESS_HOME: join(project, '.harness-home') })
  if (!runOut.includes('config run done')) throw new Error(`${kind}: npx harness run printed:\n${runOut}`)
  const log = readdirSync(join(project, '.harness', 'sessions')).filter((name) => name.endsWith('.jsonl'))
  const events = log.flatMap((name) => readFileSync(join(project, '.harness', 'sessions', name), 'utf8').split('\n'))
  if (!events.some((line) => line.includes('denied by harness.config'))) throw new Error(`${kind}: the harness.config plugin did not run`)
  say(`${kind}: npx harness run works with the project's harness.config (${kind === 'module' ? '.ts' : '.mts'})`)

  // Without a config, `harness` runs the bundle the package ships (fast start-up).
  const bare = join(project, 'bare')
  mkdirSync(bare)
  const bundled = run('npx', ['--no-install', 'harness', 'run', '--cwd', bare, '--model', 'scripted:../script.json', 'say hi'], project, {
    HARNESS_HOME: join(project, '.harness-home'),
  })
  if (!bundled.includes('config run done')) throw new Error(`${kind}: npx harness run without a config printed:\n${bundled}`)
  if (!readdirSync(join(project, 'node_modules', '@harness-kernel', 'cli', 'bundle')).includes('bin.js'))
    throw new Error('the CLI ships no bundle')
  say(`${kind}: npx harness run without a config runs the shipped bundle`)

  // The shell tool ran `echo hi` in the sandbox: with a bubblewrap on this machine it printed hi; without one (this
  // project has no @openai/codex) it was refused, naming the cause and the opt-out, and never ran unsandboxed.
  const bareLogs = join(bare, '.harness', 'sessions')
  const results = readdirSync(bareLogs)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      readFileSync(join(bareLogs, name), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    )
    .filter((event) => event.type === 'tool/result')
  const output = results[0]?.output ?? ''
  const sandboxed = output === 'hi'
  if (!sandboxed && !(output.includes('Commands cannot be sandboxed') && output.includes('danger-full-access')))
    throw new Error(`${kind}: the shell tool's result was neither a sandboxed run nor a refusal:\n${output}`)
  say(`${kind}: the shell tool ${sandboxed ? 'ran in the sandbox' : `was refused without a sandbox: ${output}`}`)
}

if (keep) say(`left in ${work}`)
else rmSync(work, { recursive: true, force: true })
say('packed install: ok')
