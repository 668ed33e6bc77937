import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DIST } from './dist-modules.js'

/** Where the large output comes from: a PreToolUse hook of either dialect that exits 2, or the shell tool's command. */
export type BigOutputSource = 'codex-hook' | 'claude-code-hook' | 'shell-tool'

export const BIG_OUTPUT_SOURCES: readonly BigOutputSource[] = ['codex-hook', 'claude-code-hook', 'shell-tool']

export interface BigOutputResult {
  source: BigOutputSource
  /** Bytes written to each of stdout and stderr. */
  bytesPerStream: number
  /**
   * The child's peak resident set size: `VmHWM` of /proc/self/status, which starts afresh at exec. (On Linux
   * `process.resourceUsage().maxRSS` keeps the spawning process's high-water mark across fork and exec, so a child of
   * a 300 MB parent reports at least 300 MB; it is kept as `maxRssBytes` for reference.)
   */
  peakRssBytes: number
  maxRssBytes: number
  turnStatus: string
  /** The tool result the model got for the shell call (the hook's block reason, or the command's output). */
  modelText: string
}

/** `bytes` of `o` on stdout and of `e` on stderr at the same time (the first byte of each is `<`, the last `>`). */
export function loudCommand(bytes: number, exitCode: number): string {
  const fill = (char: string) => `{ printf '<'; head -c ${bytes - 2} /dev/zero | tr '\\0' ${char}; printf '>'; }`
  return `${fill('o')} & ${fill('e')} >&2; wait; exit ${exitCode}`
}

/**
 * A child process (running the build) with a kernel whose one shell call meets `source` writing `bytes` to stdout and
 * to stderr; it reports its peak RSS and what the model got. Memory is measured in a process of its own so that the
 * test runner's heap does not count.
 */
const CHILD = `
const { createKernel, definePlugin } = await import(${JSON.stringify(DIST.kernel)})
const { tools } = await import(${JSON.stringify(DIST.tools)})
const { codexHooks } = await import(${JSON.stringify(DIST.codex)})
const { claudeCodeHooks } = await import(${JSON.stringify(DIST.claudeCode)})
const { mkdirSync, readFileSync, writeFileSync } = await import('node:fs')
const { join } = await import('node:path')
const [dir, source, loud] = process.argv.slice(2)
const project = join(dir, 'project')
const codexHome = join(dir, 'codex-home')
for (const folder of [join(project, '.claude'), codexHome, join(dir, 'claude-config')]) mkdirSync(folder, { recursive: true })
const hooks = { PreToolUse: [{ hooks: [{ type: 'command', command: loud }] }] }
writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: source === 'codex-hook' ? hooks : {} }))
writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: source === 'claude-code-hook' ? hooks : {} }))
let modelText
const model = {
  id: 'one-shell-call',
  async generate(request) {
    const result = request.messages.flatMap((message) => message.content).find((block) => block.type === 'tool_result')
    if (result === undefined) {
      return { content: [{ type: 'tool_call', id: 'call-1', name: 'shell', input: { command: source === 'shell-tool' ? loud : 'true' } }] }
    }
    modelText = result.output
    return { content: [{ type: 'text', text: 'done' }] }
  },
}
const kernel = createKernel(
  [
    definePlugin({ name: 'model', setup: (api) => api.provide('model', model) }),
    tools(),
    codexHooks({ codexHome, trust: 'all', trustStore: false, tmpDir: join(dir, 'codex-tmp') }),
    claudeCodeHooks({ configDir: join(dir, 'claude-config'), managedSettingsPath: false, envFileDir: join(dir, 'env'), hookOutputDir: join(dir, 'out') }),
  ],
  { cwd: project, sessionsDir: join(dir, 'sessions') },
)
const session = await kernel.startSession()
const turn = await session.run('go')
await session.end()
await kernel.dispose()
const peakRssBytes = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
process.stdout.write(JSON.stringify({ turnStatus: turn.status, modelText, peakRssBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024 }))
`

export async function runBigOutput(options: { source: BigOutputSource; bytesPerStream: number }): Promise<BigOutputResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-reliability-big-'))
  const script = join(dir, 'child.mjs')
  writeFileSync(script, CHILD)
  const command = loudCommand(options.bytesPerStream, options.source === 'shell-tool' ? 0 : 2)
  const child = spawn(process.execPath, [script, dir, options.source, command], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk)
  })
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  rmSync(dir, { recursive: true, force: true })
  if (code !== 0) throw new Error(`big-output child (${options.source}) exited ${code}: ${stderr}`)
  const report = JSON.parse(stdout) as Omit<BigOutputResult, 'source' | 'bytesPerStream'>
  return { source: options.source, bytesPerStream: options.bytesPerStream, ...report }
}
