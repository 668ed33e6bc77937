/**
 * The samples of kernel/README.md and plugins/tools/README.md, held true: the code between `// #region <readme>` and
 * `// #endregion` below must appear in that README verbatim (less its indentation), and each README's samples import
 * from `@harness-kernel/*` (and zod) only what this file imports. The kernel sample runs; the tools samples are
 * type-checked and composed.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createKernel, definePlugin, defineTool, type Plugin, type SessionEvent, STAGE_GUARD } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { builtinToolNames, readFileTool, shellTool, tools } from '@harness-kernel/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'

const here = dirname(fileURLToPath(import.meta.url))
const source = readFileSync(fileURLToPath(import.meta.url), 'utf8')
const readmes = {
  kernel: readFileSync(resolve(here, '../../kernel/README.md'), 'utf8'),
  tools: readFileSync(resolve(here, '../../plugins/tools/README.md'), 'utf8'),
}

/** Each `// #region <name>` … `// #endregion` of this file, without the indentation its lines share. */
function regions(name: string): string[] {
  const pattern = new RegExp(`^[ \\t]*// #region ${name}\\n([\\s\\S]*?)^[ \\t]*// #endregion$`, 'gm')
  return [...source.matchAll(pattern)].map((match) => {
    const lines = match[1]!.replace(/\n$/, '').split('\n')
    const indent = Math.min(...lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length))
    return lines.map((line) => line.slice(indent)).join('\n')
  })
}

/** `package name` for every name a README's `ts` samples import from `@harness-kernel/*` or zod. */
function imports(text: string): Set<string> {
  const names = new Set<string>()
  for (const match of text.matchAll(/^import \{([^}]+)\} from '(@harness-kernel\/[^']+|zod)'$/gm)) {
    for (const name of match[1]!.split(',')) names.add(`${match[2]} ${name.trim()}`)
  }
  return names
}

function expectSamples(readme: keyof typeof readmes, count: number) {
  const text = readmes[readme]
  expect(regions(readme)).toHaveLength(count)
  let from = 0
  for (const region of regions(readme)) {
    const at = text.indexOf(region, from)
    expect(at, `${readme} README lacks (after offset ${from}):\n${region}`).toBeGreaterThanOrEqual(0)
    from = at + region.length
  }
  const samples = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).join('\n')
  const sampleImports = imports(samples)
  expect(sampleImports.size).toBeGreaterThan(0)
  for (const name of sampleImports) expect(imports(source)).toContain(name)
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempCwd(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'package-readmes-')))
  dirs.push(dir)
  return dir
}

/** kernel/README.md's five-minute example; `console` is the test's, `cwd` a temp dir. */
async function kernelSample(cwd: string, console: { log: (...values: unknown[]) => void }) {
  // #region kernel
  // A native plugin: a tool of its own, and a policy on the tools/pre-execute point.
  const calculator = definePlugin({
    name: 'calculator',
    setup(kernel) {
      kernel.registerTool(
        defineTool({
          name: 'add',
          description: 'Adds two numbers.',
          inputSchema: z.object({ a: z.number(), b: z.number() }),
          async execute({ a, b }) {
            return { output: String(a + b), isError: false }
          },
        }),
      )
      // At the guard stage the policy sees each call before ordinary taps; a deny is final.
      kernel.hooks.toolPreExecute.tap({ name: 'no-negatives', stage: STAGE_GUARD }, (decision, { call }) => {
        const { a, b } = call.input as { a: number; b: number }
        return call.name === 'add' && (a < 0 || b < 0) ? { kind: 'deny', reason: 'add takes no negative numbers' } : decision
      })
    },
  })

  // A model that replies from a script: two calls in one step, then an answer.
  const model = scriptedModel({
    script: [
      {
        text: 'Adding.',
        tool_calls: [
          { name: 'add', input: { a: 2, b: 3 } },
          { name: 'add', input: { a: -1, b: 3 } },
        ],
      },
      { text: '2 + 3 = 5. I may not add negative numbers.' },
    ],
  })

  const kernel = createKernel([model, calculator], { cwd }) // the session log goes to <cwd>/.harness/sessions
  const session = await kernel.startSession()
  const turn = await session.run('What are 2 + 3 and -1 + 3?')
  console.log(turn.status, turn.lastAssistantMessage) // completed 2 + 3 = 5. I may not add negative numbers.
  for (const message of model.model.requests[1]!.messages) {
    for (const block of message.content) if (block.type === 'tool_result') console.log(block.output, block.isError) // 5 false, then the denial
  }
  console.log(session.transcriptPath) // every event of the session, one JSON object per line
  await session.end()
  await kernel.dispose()
  // #endregion
  return { kernel, session }
}

/** plugins/tools/README.md's samples (composed, not run: no turn). */
function toolsSamples(): Plugin[] {
  // #region tools
  const all = tools() // shell, read_file, write_file, edit_file
  const readOnly = tools({ include: ['read_file'], maxReadBytes: 64 * 1024 })
  const quickShell = tools({ shell: { timeoutMs: 30_000, maxOutputBytes: 16 * 1024, shell: '/bin/sh' } })
  // #endregion
  // #region tools
  const mine = definePlugin({
    name: 'my-tools',
    setup(kernel) {
      kernel.registerTool(readFileTool({ maxReadBytes: 16 * 1024 }))
      kernel.registerTool({ ...shellTool({ timeoutMs: 10_000 }), name: 'run' }) // the same tool under another name
    },
  })
  // #endregion
  return [all, readOnly, quickShell, mine]
}

describe('kernel/README.md', () => {
  it('shows the five-minute example of this file, which runs: a tool, a guard-stage deny, a completed turn', async () => {
    expectSamples('kernel', 1)
    const printed: unknown[][] = []
    const cwd = tempCwd()
    const { kernel, session } = await kernelSample(cwd, { log: (...values) => printed.push(values) })
    expect(kernel.plugins).toEqual(['scripted-model', 'calculator'])
    expect(printed).toEqual([
      ['completed', '2 + 3 = 5. I may not add negative numbers.'],
      ['5', false],
      ['add takes no negative numbers', true],
      [join(cwd, '.harness/sessions', `${session.id}.jsonl`)],
    ])
    const events = readFileSync(session.transcriptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent)
    expect(events.flatMap((event) => (event.type === 'tool/call' ? [event.decision] : []))).toEqual(['allow', 'deny'])
  })
})

describe('plugins/tools/README.md', () => {
  it('shows the samples of this file; they compose, with the tools they name', async () => {
    expectSamples('tools', 2)
    expect(builtinToolNames).toEqual(['shell', 'read_file', 'write_file', 'edit_file'])
    const [all, readOnly, quickShell, mine] = toolsSamples()
    const registered = async (plugin: Plugin) => {
      const kernel = createKernel([plugin], { cwd: tempCwd() })
      await kernel.ready
      const names = kernel
        .resolve('tools')
        .list()
        .map((tool) => [tool.name, tool.aliases ?? null, tool.parallel === true])
      await kernel.dispose()
      return names
    }
    expect(await registered(all!)).toEqual([
      ['shell', { codex: 'Bash', claudeCode: 'Bash' }, false],
      ['read_file', { codex: 'read_file', claudeCode: 'Read' }, true],
      ['write_file', { codex: 'write_file', claudeCode: 'Write' }, false],
      ['edit_file', { codex: 'edit_file', claudeCode: 'Edit' }, false],
    ])
    expect((await registered(readOnly!)).map(([name]) => name)).toEqual(['read_file'])
    expect((await registered(quickShell!)).map(([name]) => name)).toEqual(['shell', 'read_file', 'write_file', 'edit_file'])
    expect((await registered(mine!)).map(([name]) => name)).toEqual(['read_file', 'run'])
    expect(() => tools({ include: ['bash' as never] })).toThrow(
      'tools: unknown tool "bash" in include; known: shell, read_file, write_file, edit_file',
    )
  })
})
