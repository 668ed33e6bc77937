import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { command, type Handler, put, tempRoot } from './fixtures/config/layout.js'

function load(hooks: Record<string, unknown>) {
  const root = tempRoot()
  const path = put(root, 'home/hooks.json', { hooks })
  const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
  return { path, root, ...loaded }
}

const one = (event: string, handler: Handler, matcher?: string) => ({
  [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] }],
})

describe('handler fields', () => {
  it('ignores unknown handler keys, unknown events and `description` without a warning', () => {
    const root = tempRoot()
    put(root, 'home/hooks.json', {
      description: 'd',
      hooks: { Bogus: [{ hooks: [command('b')] }], Stop: [{ other: 1, hooks: [command('s', { foo: 1 })] }] },
    })
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([])
    expect(loaded.handlers.map((h) => h.command)).toEqual(['s'])
  })

  it('fails the whole file on any other top-level key (Codex 0.169.0 denies unknown fields there)', () => {
    const root = tempRoot()
    const path = put(root, 'home/hooks.json', { comment: 'x', hooks: one('Stop', command('s')) })
    put(root, 'home/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "toml"\n')
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([
      `failed to parse hooks config ${path}: unknown field \`comment\`, expected \`description\` or \`hooks\` at line 1 column 10`,
    ])
    expect(loaded.handlers.map((h) => h.command)).toEqual(['toml'])
  })

  it('skips a blank command, a prompt hook and an agent hook with their warnings, keeping their index', () => {
    const { path, warnings, handlers } = load({
      Stop: [{ hooks: [command(' \t\n'), { type: 'prompt', prompt: 'p' }, { type: 'agent' }, command('kept')] }],
    })
    expect(warnings).toEqual([
      `skipping empty hook command in ${path}`,
      `skipping prompt hook in ${path}: prompt hooks are not supported yet`,
      `skipping agent hook in ${path}: agent hooks are not supported yet`,
    ])
    expect(handlers.map((h) => [h.key, h.displayOrder])).toEqual([[`${path}:stop:0:3`, 0]])
  })

  it('defaults timeout to 600 s, turns 0 into 1, and ignores timeoutSec and commandWindows', () => {
    const { handlers, warnings } = load({
      PreToolUse: [
        {
          hooks: [
            command('a'),
            command('b', { timeout: 0 }),
            command('c', { timeoutSec: 7 }),
            command('d', { timeout: 30, commandWindows: 'w' }),
          ],
        },
      ],
    })
    expect(warnings).toEqual([])
    expect(handlers.map((h) => [h.command, h.timeoutSec])).toEqual([
      ['a', 600],
      ['b', 1],
      ['c', 600],
      ['d', 30],
    ])
  })

  it('defaults SessionEnd and Interrupt to 1 s and clamps them to 3 s with a warning', () => {
    const { path, handlers, warnings } = load({
      SessionEnd: [{ hooks: [command('a'), command('b', { timeout: 10 }), command('c', { timeout: 3 }), command('d', { timeout: 0 })] }],
      Interrupt: [{ hooks: [command('e', { timeout: 4 })] }],
    })
    expect(warnings).toEqual([`clamping SessionEnd hook timeout to 3s in ${path}`, `clamping Interrupt hook timeout to 3s in ${path}`])
    expect(handlers.map((h) => [h.command, h.timeoutSec])).toEqual([
      ['a', 1],
      ['b', 3],
      ['c', 3],
      ['d', 1],
      ['e', 3],
    ])
  })

  it('keeps async, statusMessage and additionalContextLimit', () => {
    const { handlers } = load(one('PostToolUse', command('x', { async: true, statusMessage: 'Checking', additionalContextLimit: 0 })))
    expect(handlers[0]).toMatchObject({ async: true, statusMessage: 'Checking', additionalContextLimit: 0 })
  })

  it('drops additionalContextLimit on events that cannot emit context, with the exact warning', () => {
    const events = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PreCompact', 'PostCompact', 'SessionStart', 'SessionEnd']
    const more = ['UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop', 'Interrupt']
    const { path, handlers, warnings } = load(
      Object.fromEntries([...events, ...more].map((e) => [e, [{ hooks: [command(e, { additionalContextLimit: 100 })] }]])),
    )
    const dropped = ['PermissionRequest', 'PreCompact', 'PostCompact', 'SessionEnd', 'SubagentStop', 'Stop', 'Interrupt']
    expect(warnings).toEqual(
      dropped.map((e) => `ignoring additionalContextLimit for ${e} hook in ${path}: this event cannot emit additionalContext`),
    )
    expect(handlers.filter((h) => h.additionalContextLimit === 100).map((h) => h.event)).toEqual([
      'PreToolUse',
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
      'SubagentStart',
    ])
  })

  it('gives the clamp warning before the additionalContextLimit one for the same handler', () => {
    const { path, warnings } = load(one('SessionEnd', command('x', { timeout: 9, additionalContextLimit: 5 })))
    expect(warnings).toEqual([
      `clamping SessionEnd hook timeout to 3s in ${path}`,
      `ignoring additionalContextLimit for SessionEnd hook in ${path}: this event cannot emit additionalContext`,
    ])
  })

  it('numbers mcp_tool handlers without loading them (the harness cannot run them)', () => {
    const { handlers, warnings } = load({ Stop: [{ hooks: [{ type: 'mcp_tool', server: 's', tool: 't' }, command('after')] }] })
    expect(warnings).toEqual([])
    expect(handlers.map((h) => [h.key.split(':').slice(-2).join(':'), h.displayOrder])).toEqual([['0:1', 1]])
  })

  it('loads PreModelRequest/PostModelRequest handlers first, their matchers ignored (even an invalid one)', () => {
    const { path, handlers, warnings } = load({
      Stop: [{ hooks: [command('stop')] }],
      PostModelRequest: [{ matcher: '[', hooks: [command('post', { additionalContextLimit: 1 })] }],
      PreModelRequest: [{ hooks: [command('pre'), command('')] }],
    })
    expect(warnings).toEqual([
      `skipping empty hook command in ${path}`,
      `ignoring additionalContextLimit for PostModelRequest hook in ${path}: this event cannot emit additionalContext`,
    ])
    expect(handlers.map((h) => [h.event, h.command, h.matcher, h.displayOrder])).toEqual([
      ['PreModelRequest', 'pre', undefined, 0],
      ['PostModelRequest', 'post', undefined, 1],
      ['Stop', 'stop', undefined, 2],
    ])
  })
})

describe('matchers at load time', () => {
  it('skips only the group of an invalid matcher, with the exact warning, keeping group indexes', () => {
    const { path, handlers, warnings } = load({
      PreToolUse: [
        { matcher: '[', hooks: [command('bad')] },
        { matcher: 'Bash', hooks: [command('good')] },
      ],
    })
    expect(warnings).toEqual([`invalid matcher "[" in ${path}: regex parse error:\n    [\n    ^\nerror: unclosed character class`])
    expect(handlers.map((h) => [h.key, h.displayOrder])).toEqual([[`${path}:pre_tool_use:1:0`, 0]])
  })

  it('rejects look-around and backreferences with their reasons', () => {
    const { path, warnings, handlers } = load({
      PreToolUse: [
        { matcher: '(?=Bash)', hooks: [command('a')] },
        { matcher: '(a)\\1', hooks: [command('b')] },
      ],
    })
    expect(warnings).toEqual([
      `invalid matcher "(?=Bash)" in ${path}: regex parse error:\n    (?=Bash)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported`,
      `invalid matcher "(a)\\\\1" in ${path}: regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported`,
    ])
    expect(handlers).toEqual([])
  })

  it('ignores matchers entirely on UserPromptSubmit, Stop and Interrupt, even invalid ones', () => {
    const { handlers, warnings } = load({
      UserPromptSubmit: [{ matcher: '[', hooks: [command('ups')] }],
      Stop: [{ matcher: 'nomatch', hooks: [command('stop')] }],
      Interrupt: [{ matcher: '(?=x)', hooks: [command('int')] }],
    })
    expect(warnings).toEqual([])
    expect(handlers.map((h) => [h.command, h.matcher])).toEqual([
      ['ups', undefined],
      ['stop', undefined],
      ['int', undefined],
    ])
  })

  it('keeps "", "*" and absent matchers as written', () => {
    const { handlers } = load({
      PreToolUse: [
        { matcher: '', hooks: [command('empty')] },
        { matcher: '*', hooks: [command('star')] },
        { hooks: [command('absent')] },
        { matcher: null, hooks: [command('null')] },
      ],
    })
    expect(handlers.map((h) => h.matcher)).toEqual(['', '*', undefined, undefined])
  })
})
