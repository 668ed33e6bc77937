import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type FakeAnthropic, type FakeOpenAI, startFakeAnthropic, startFakeOpenAI } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { harness, project, SHELL_SCRIPT, sessionsIn } from '../../../cli/test/support.js'
import { isolatedClaudeEnv } from '../../../drivers/claude-code/test/support/claude-env.js'
import { type OtlpReceiver, type ReceivedSpan, startOtlpHttpReceiver } from './support/otlp-receiver.js'

/** Endpoints, keys and OpenTelemetry settings of the machine's own environment must not reach these runs. */
const CLEAN = {
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  ANTHROPIC_MODEL: '',
  ANTHROPIC_AUTH_TOKEN: '',
  HARNESS_MODEL: '',
  OTEL_SDK_DISABLED: '',
  OTEL_TRACES_EXPORTER: '',
  OTEL_METRICS_EXPORTER: '',
  OTEL_EXPORTER_OTLP_PROTOCOL: '',
  OTEL_EXPORTER_OTLP_HEADERS: '',
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function collector(): Promise<OtlpReceiver> {
  const receiver = await startOtlpHttpReceiver()
  cleanups.push(() => receiver.close())
  return receiver
}

function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The run's trace as the collector has it: one trace, the session at its root, the turn under it. */
function expectTrace(spans: readonly ReceivedSpan[], sessionId: string, driver: string) {
  const session = spans.find((span) => span.name === 'session' && span.attributes['harness.session.id'] === sessionId)
  expect(session, `no session span for ${sessionId} in ${spans.map((span) => span.name).join(', ')}`).toBeDefined()
  expect(session!.attributes['harness.driver']).toBe(driver)
  expect(session!.resource['service.name']).toBe('harness')
  const ours = spans.filter((span) => span.traceId === session!.traceId && span.scope === '@harness-kernel/telemetry')
  const turn = ours.find((span) => span.name === 'invoke_agent harness')!
  expect(turn.parentSpanId).toBe(session!.spanId)
  expect(turn.attributes['harness.turn.status']).toBe('completed')
  const tool = ours.find((span) => span.name === 'execute_tool shell')!
  expect(tool.parentSpanId).toBe(turn.spanId)
  expect(ours.filter((span) => span.name.startsWith('chat') && span.parentSpanId === turn.spanId).length).toBeGreaterThanOrEqual(2)
  return { session: session!, ours }
}

describe('OTEL_EXPORTER_OTLP_ENDPOINT=… harness run sends a trace a collector accepts', () => {
  it('on the native loop (a scripted model)', async () => {
    const receiver = await collector()
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    const result = await harness(['run', '--model', 'scripted:script.yaml', 'check'], {
      cwd,
      env: { ...CLEAN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    expectTrace(receiver.spans, id!, 'native')
    expect(
      receiver.points.some((point) => point.metric === 'harness.turns' && point.attributes['harness.turn.status'] === 'completed'),
    ).toBe(true)
  })

  it('on the Claude Code driver, with Claude Code’s own spans under the session', async () => {
    const receiver = await collector()
    const server: FakeAnthropic = await startFakeAnthropic()
    cleanups.push(() => server.close())
    const cwd = project()
    const env = {
      ...CLEAN,
      ...isolatedClaudeEnv({ baseUrl: server.url, dir: scratch('hk-telemetry-claude-') }),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    }
    const prompt = `Run it [[tool:mcp__host__shell:${JSON.stringify({ command: 'echo from-kernel-tool' })}]]`
    const result = await harness(['run', '--driver', 'claude-code', prompt], { cwd, env })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    const { session } = expectTrace(receiver.spans, id!, 'claude-code')
    const interaction = receiver.spans.find((span) => span.name === 'claude_code.interaction')
    expect(interaction?.traceId).toBe(session.traceId)
    expect(interaction?.parentSpanId).toBe(session.spanId)
  })

  it('on the Codex driver', async () => {
    const receiver = await collector()
    const server: FakeOpenAI = await startFakeOpenAI()
    cleanups.push(() => server.close())
    const home = join(scratch('hk-telemetry-codex-'), 'home')
    mkdirSync(home)
    const cwd = project()
    const prompt = `Run it [[call:shell:${JSON.stringify({ command: 'echo from-kernel-tool' })}]]`
    const result = await harness(['run', '--driver', 'codex', '--model', 'openai:gpt-5.1-codex', prompt], {
      cwd,
      env: { ...CLEAN, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'fake-key', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    const [id] = sessionsIn(join(cwd, '.harness/sessions'))
    const { ours } = expectTrace(receiver.spans, id!, 'codex')
    expect(ours.some((span) => typeof span.attributes['gen_ai.usage.input_tokens'] === 'number')).toBe(true)
  })

  it('from the bundle a user runs (one file and lazy chunks): the SDK and each protocol load from their chunks', async () => {
    const receiver = await collector()
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')
    // Laid out as the published package (its package.json beside bundle/), with a node_modules for its externals.
    const dir = scratch('hk-telemetry-bundle-')
    copyFileSync(join(root, 'cli/package.json'), join(dir, 'package.json'))
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    const out = join(dir, 'bundle')
    execFileSync(process.execPath, [join(root, 'cli/scripts/bundle.mjs'), out], { stdio: 'pipe' })
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    for (const protocol of ['http/protobuf', 'http/json']) {
      // Not spawnSync: the collector answers from this process.
      const child = spawn(process.execPath, [join(out, 'bin.js'), 'run', '--model', 'scripted:script.yaml', 'check'], {
        cwd,
        env: { ...process.env, ...CLEAN, NO_COLOR: '1', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
      })
      const code = await new Promise((resolve) => child.on('close', resolve))
      const run = { code, stderr }
      expect(run.code).toBe(0)
      expect(run.stderr).toContain('[turn] completed')
      expect(run.stderr).not.toMatch(/telemetry( is off|:)|failed to set up/)
    }
    const types = receiver.requests.filter((request) => request.path === '/v1/traces').map((request) => request.contentType)
    expect(types).toEqual(['application/x-protobuf', 'application/json'])
    expect(receiver.spans.filter((span) => span.name === 'invoke_agent harness')).toHaveLength(2)
  })

  it('without OTEL_* nothing is loaded or sent; a malformed value is a notice and the run goes on', async () => {
    const receiver = await collector()
    const cwd = project({ 'script.yaml': SHELL_SCRIPT })
    const off = await harness(['run', '--model', 'scripted:script.yaml', 'check'], {
      cwd,
      env: { ...CLEAN, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    })
    expect(off.code).toBe(0)
    expect(off.stderr).not.toContain('telemetry')
    const bad = await harness(['run', '--model', 'scripted:script.yaml', 'check'], {
      cwd,
      env: { ...CLEAN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuff' },
    })
    expect(bad.code).toBe(0)
    expect(bad.stderr).toContain(
      'telemetry is off: OTEL_EXPORTER_OTLP_PROTOCOL: expected one of http/protobuf, http/json, grpc, got "http/protobuff"',
    )
    expect(receiver.requests).toEqual([])
  })
})
