import { describe, expect, it } from 'vitest'
import { EFFORT_ENV_EVENTS, HOOK_ENV_NOT_PROVIDED, HOOK_ENV_SET, HOOK_ENV_STRIPPED_PREFIXES, hookEnv } from '../src/run/index.js'

const parentEnv = { PATH: '/usr/bin', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SERVICE_NAME: 'x', NOT_OTEL_X: 'kept' }
const base = { projectDir: '/home/user/proj', sessionId: 'sess-9', parentEnv }

describe('hookEnv', () => {
  it('sets the variables every hook gets, naming the harness by default', () => {
    const env = hookEnv({ ...base, event: 'UserPromptSubmit' })
    expect(env).toMatchObject({
      CLAUDE_PROJECT_DIR: '/home/user/proj',
      CLAUDECODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'harness-kernel',
      CLAUDE_CODE_SESSION_ID: 'sess-9',
      AI_AGENT: 'harness-kernel',
    })
    expect(hookEnv({ ...base, event: 'Stop', entrypoint: 'my-cli', agentName: 'my-agent_1-0' })).toMatchObject({
      CLAUDE_CODE_ENTRYPOINT: 'my-cli',
      AI_AGENT: 'my-agent_1-0',
    })
  })

  // Observed from the real Claude Code: wherever the payload carries `effort` (the spec listed four of these).
  it('sets CLAUDE_EFFORT only on the events whose payload carries `effort`, and only with an effort level', () => {
    expect([...EFFORT_ENV_EVENTS]).toEqual([
      'PreToolUse',
      'PermissionRequest',
      'PermissionDenied',
      'PostToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'Stop',
      'SubagentStop',
      'Interrupt',
    ])
    for (const event of EFFORT_ENV_EVENTS) expect(hookEnv({ ...base, event, effort: 'medium' }).CLAUDE_EFFORT).toBe('medium')
    for (const event of ['SessionStart', 'UserPromptSubmit', 'SubagentStart', 'SessionEnd']) {
      const env = hookEnv({ ...base, event, effort: 'medium' })
      expect(Object.hasOwn(env, 'CLAUDE_EFFORT') && env.CLAUDE_EFFORT === undefined, event).toBe(true)
    }
    expect(hookEnv({ ...base, event: 'Stop' }).CLAUDE_EFFORT).toBeUndefined()
  })

  it('sets CLAUDE_ENV_FILE only for SessionStart', () => {
    expect(hookEnv({ ...base, event: 'SessionStart', envFile: '/e/sessionstart-hook-0.sh' }).CLAUDE_ENV_FILE).toBe(
      '/e/sessionstart-hook-0.sh',
    )
    expect(hookEnv({ ...base, event: 'Stop', envFile: '/e/x.sh' }).CLAUDE_ENV_FILE).toBeUndefined()
    expect(hookEnv({ ...base, event: 'SessionStart' }).CLAUDE_ENV_FILE).toBeUndefined()
  })

  it('sets the plugin root and data dir for plugin handlers only', () => {
    const plugin = hookEnv({ ...base, event: 'Stop', plugin: { root: '/plugins/fmt', data: '/data/fmt' } })
    expect(plugin).toMatchObject({ CLAUDE_PLUGIN_ROOT: '/plugins/fmt', CLAUDE_PLUGIN_DATA: '/data/fmt' })
    const settings = hookEnv({ ...base, event: 'Stop' })
    expect(settings.CLAUDE_PLUGIN_ROOT).toBeUndefined()
    expect(Object.hasOwn(settings, 'CLAUDE_PLUGIN_ROOT')).toBe(true)
  })

  it('removes inherited OTEL_* variables and leaves the others to the parent environment', () => {
    const env = hookEnv({ ...base, event: 'Stop' })
    expect(HOOK_ENV_STRIPPED_PREFIXES).toEqual(['OTEL_'])
    expect(Object.hasOwn(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') && env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined).toBe(true)
    expect(Object.hasOwn(env, 'OTEL_SERVICE_NAME') && env.OTEL_SERVICE_NAME === undefined).toBe(true)
    expect(Object.hasOwn(env, 'NOT_OTEL_X')).toBe(false)
    expect(Object.hasOwn(env, 'PATH')).toBe(false)
  })

  it('never fakes the Claude process, messaging or notes variables, and removes inherited ones', () => {
    const env = hookEnv({ ...base, event: 'Stop' })
    expect([...HOOK_ENV_NOT_PROVIDED]).toEqual([
      'CLAUDE_PID',
      'CLAUDE_CODE_MESSAGING_SOCKET',
      'CLAUDE_CODE_MESSAGING_TOKEN',
      'CLAUDE_CODE_CHILD_NOTES_DIR',
    ])
    for (const name of HOOK_ENV_NOT_PROVIDED) expect(Object.hasOwn(env, name) && env[name] === undefined, name).toBe(true)
  })

  it('documents every variable it sets', () => {
    const env = hookEnv({
      ...base,
      event: 'SessionStart',
      effort: 'low',
      envFile: '/f',
      plugin: { root: '/r', data: '/d' },
    })
    const set = Object.keys(env).filter((name) => env[name] !== undefined)
    expect(set.every((name) => (HOOK_ENV_SET as readonly string[]).includes(name))).toBe(true)
  })
})
