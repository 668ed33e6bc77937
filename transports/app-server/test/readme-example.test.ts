/**
 * The README's samples, held true: the code between `// #region readme:<name>` and `// #endregion` below must appear
 * in README.md verbatim (less its indentation), the regions of one name in order, and the README's samples import
 * from `@harness-kernel/*` exactly what this file imports from there. The client sample runs against a real
 * `harness app-server` (the CLI's build, found on PATH as `harness`, as a host finds it); the server sample is
 * type-checked.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, createAppServer, createAppServerBridge, serveStdio } from '@harness-kernel/app-server'
import { codexHooks } from '@harness-kernel/codex'
import { createKernel } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { codexSchema } from './support/codex-schema.js'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '../../..')
const readme = readFileSync(resolve(here, '../README.md'), 'utf8')
const source = readFileSync(fileURLToPath(import.meta.url), 'utf8')

/** Each `// #region readme:<name>` … `// #endregion` of this file, without the indentation its lines share. */
function regions(name: string): string[] {
  const pattern = new RegExp(`^[ \\t]*// #region readme:${name}\\n([\\s\\S]*?)^[ \\t]*// #endregion$`, 'gm')
  return [...source.matchAll(pattern)].map((match) => {
    const lines = match[1]!.replace(/\n$/, '').split('\n')
    const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length))
    return lines.map((line) => line.slice(indent)).join('\n')
  })
}

/** The `@harness-kernel/*` import lines of `text`, each name imported once per package, sorted. */
function kernelImports(text: string): string[] {
  const names = new Set<string>()
  for (const match of text.matchAll(/^import \{([^}]+)\} from '(@harness-kernel\/[^']+)'$/gm)) {
    for (const name of match[1]!.split(',')) names.add(`${match[2]} ${name.trim()}`)
  }
  return [...names].sort()
}

/** The README's client sample, from `const client` to the end; `steered` runs once the steer was answered. */
async function clientSample(cwd: string, log: (line: string) => void, steered: () => void) {
  // #region readme:client
  const client = AppServerClient.spawn('harness', ['app-server', '--model', 'scripted:script.yaml'], { cwd })
  try {
    const init = await client.initialize({ name: 'my-host', version: '1.0.0' })
    log(`driver: ${init.driver?.id}`)
    const { thread } = await client.startThread({ cwd })
    const { turn } = await client.startTurn(thread.id, 'Build the project and tell me how it went.')
    // Steer the running turn: recorded at its next boundary, or handed back in a turn/steer/dropped notification.
    await client.steer(thread.id, turn.id, 'Also write one line of release notes.')
    // #endregion
    steered()
    // #region readme:client
    const { turn: done } = await client.turnCompleted(thread.id, turn.id)
    const answer = done.items.findLast((item) => item.type === 'agentMessage')
    log(`${done.status}: ${String(answer?.text)}`)
  } finally {
    await client.close() // ends stdin: the server ends its sessions and exits
  }
  // #endregion
  return client
}

/** The README's server sample; type-checked, not run (it would take over this process's stdio). */
export async function serverSample() {
  // #region readme:server
  const model = scriptedModel({ script: 'script.yaml' })

  // 1. Let the server compose: it passes its plugin to your factory (put it anywhere; first is customary).
  serveStdio({ createKernel: (plugins) => createKernel([...plugins, tools(), codexHooks(), model]) })

  // 2. Or compose yourself and hand over the kernel with the bridge whose plugin it contains.
  const bridge = createAppServerBridge()
  const kernel = createKernel([bridge.plugin, tools(), model])
  const server = createAppServer({ kernel, bridge, input: process.stdin, output: process.stdout })
  await server.closed // the input ended (host gone) or server.close() was called; a passed-in kernel is yours to dispose
  await kernel.dispose()
  // #endregion
}

let dir: string
const saved = { ...process.env }
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'app-server-readme-')))
  // `harness` as a host finds it (npm puts it in node_modules/.bin); homes of the test's own, never the user's.
  process.env.PATH = `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}`
  process.env.CODEX_HOME = join(dir, 'codex-home')
  process.env.HARNESS_HOME = join(dir, 'harness-home')
  process.env.CLAUDE_CONFIG_DIR = join(dir, 'claude')
  delete process.env.HARNESS_MODEL
})
afterAll(() => {
  process.env = saved
  rmSync(dir, { recursive: true, force: true })
})
// Every message the server sent the sample could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  vi.restoreAllMocks()
  expect(codexSchema.take()).toEqual([])
})

it('the README shows the samples of this file, with their imports', () => {
  for (const [name, count] of [
    ['client', 2],
    ['server', 1],
  ] as const) {
    expect(regions(name)).toHaveLength(count)
    let from = 0
    for (const region of regions(name)) {
      const at = readme.indexOf(region, from)
      expect(at, `README.md lacks (after offset ${from}):\n${region}`).toBeGreaterThanOrEqual(0)
      from = at + region.length
    }
  }
  const samples = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).join('\n')
  expect(kernelImports(samples)).toEqual(kernelImports(source))
})

it('the client sample spawns harness app-server, starts a turn, steers it and sees it complete', async () => {
  const project = realpathSync(mkdtempSync(join(dir, 'project-')))
  // The model's one tool call waits until the steer was answered, so the steer lands in this turn, at the boundary after it.
  writeFileSync(
    join(project, 'script.yaml'),
    [
      'steps:',
      '  - text: Running the build.',
      '    tool_calls:',
      '      - name: shell',
      '        input: { command: "until [ -e steered ]; do sleep 0.02; done; echo built" }',
      '  - text: "Built. Release notes: the build runs in one step."',
      '',
    ].join('\n'),
  )
  // The sample's client, as it spawns it, with the schema check tapping what it receives.
  const spawn = AppServerClient.spawn.bind(AppServerClient)
  vi.spyOn(AppServerClient, 'spawn').mockImplementation((command, args, options) =>
    spawn(command, args, { ...options, onReceive: codexSchema.onReceive }),
  )
  const lines: string[] = []
  const client = await clientSample(
    project,
    (line) => lines.push(line),
    () => writeFileSync(join(project, 'steered'), ''),
  )
  expect(lines).toEqual(['driver: native', 'completed: Built. Release notes: the build runs in one step.'])
  const steer = client.notifications.find(
    ({ method, params }) =>
      method === 'item/completed' &&
      (params.item as { type: string; content?: { text?: string }[] }).type === 'userMessage' &&
      JSON.stringify(params.item).includes('Also write one line of release notes.'),
  )
  expect(steer?.params.turnId).toBeDefined()
  expect(client.notifications.filter(({ method }) => method === 'turn/started')).toHaveLength(1)
  expect(client.notifications.some(({ method }) => method === 'turn/steer/dropped')).toBe(false)
})
