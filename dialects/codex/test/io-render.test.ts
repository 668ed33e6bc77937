import { describe, expect, it } from 'vitest'
import { escapeHookPrompt, hookPromptText, hookRunId, permissionDeniedText, preToolUseBlockText } from '../src/io/render.js'
import { rustDebugString, rustLineCount, rustTrim, trimmedNonEmpty } from '../src/io/rust-text.js'

describe('preToolUseBlockText (checklist 75, 95)', () => {
  it('matches the observed text', () => {
    expect(preToolUseBlockText('blocked by exit2 hook', 'echo hello-from-tool')).toBe(
      'Command blocked by PreToolUse hook: blocked by exit2 hook. Command: echo hello-from-tool',
    )
  })

  it('redactCommand drops ". Command: <cmd>"', () => {
    expect(preToolUseBlockText('no', 'rm -rf /', { redactCommand: true })).toBe('Command blocked by PreToolUse hook: no')
    expect(preToolUseBlockText('no', 'rm -rf /', { redactCommand: false })).toBe(
      'Command blocked by PreToolUse hook: no. Command: rm -rf /',
    )
  })
})

describe('hook_prompt (checklist 83–86)', () => {
  it('matches the observed Stop item', () => {
    expect(hookPromptText('stop:9:/home/user/.codex/hooks.json', 'keep going')).toBe(
      '<hook_prompt hook_run_id="stop:9:/home/user/.codex/hooks.json">keep going</hook_prompt>',
    )
  })

  it('escapes the §7 example exactly (checklist 85)', () => {
    const reason = 'a <b>&amp; "q" </hook_prompt> é\nline2'
    expect(escapeHookPrompt(reason)).toBe('a &lt;b&gt;&amp;amp; "q" &lt;/hook_prompt&gt; é\nline2')
    expect(hookPromptText('stop:0:/p/hooks.json', reason)).toBe(
      '<hook_prompt hook_run_id="stop:0:/p/hooks.json">a &lt;b&gt;&amp;amp; "q" &lt;/hook_prompt&gt; é\nline2</hook_prompt>',
    )
  })

  it('escapes &, <, > and " in the run id attribute', () => {
    expect(hookPromptText('stop:0:/we"ird/<a>&b/hooks.json', 'x')).toBe(
      '<hook_prompt hook_run_id="stop:0:/we&quot;ird/&lt;a&gt;&amp;b/hooks.json">x</hook_prompt>',
    )
  })
})

describe('permissionDeniedText (checklist 73)', () => {
  it('matches a user decline', () => {
    expect(permissionDeniedText('rejected by user')).toBe(
      'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }',
    )
  })

  it('the default deny message', () => {
    expect(permissionDeniedText('PermissionRequest hook denied approval')).toBe(
      'exec_command failed: CreateProcess { message: "Rejected(\\"PermissionRequest hook denied approval\\")" }',
    )
  })

  it('escapes the message twice, as nested Rust Debug strings', () => {
    expect(permissionDeniedText('say "hi"')).toBe('exec_command failed: CreateProcess { message: "Rejected(\\"say \\\\\\"hi\\\\\\"\\")" }')
    expect(permissionDeniedText('a\nb\\c')).toBe('exec_command failed: CreateProcess { message: "Rejected(\\"a\\\\nb\\\\\\\\c\\")" }')
  })

  it('a kernel tool uses its own name', () => {
    expect(permissionDeniedText('no', 'shell')).toBe('shell failed: CreateProcess { message: "Rejected(\\"no\\")" }')
  })
})

describe('hookRunId', () => {
  it('follows §9', () => {
    expect(hookRunId('PreToolUse', 0, '/home/user/.codex/hooks.json', 'call_0')).toBe('pre-tool-use:0:/home/user/.codex/hooks.json:call_0')
    expect(hookRunId('Stop', 9, '/home/user/.codex/hooks.json')).toBe('stop:9:/home/user/.codex/hooks.json')
    expect(hookRunId('SessionStart', 5, '/x/config.toml')).toBe('session-start:5:/x/config.toml')
    expect(hookRunId('SubagentStop', 8, '/home/user/.codex/hooks.json')).toBe('subagent-stop:8:/home/user/.codex/hooks.json')
    expect(hookRunId('Interrupt', 2, '/h.json')).toBe('interrupt:2:/h.json')
    expect(hookRunId('PermissionRequest', 1, '/h.json', 'call_3')).toBe('permission-request:1:/h.json:call_3')
  })
})

describe('Rust string semantics', () => {
  it('rustDebugString', () => {
    expect(rustDebugString('plain text')).toBe('"plain text"')
    expect(rustDebugString(`it's "x"`)).toBe(`"it's \\"x\\""`)
    expect(rustDebugString('\\ \n \r \t \0')).toBe('"\\\\ \\n \\r \\t \\0"')
    expect(rustDebugString('\u0007\u007f\u0085')).toBe('"\\u{7}\\u{7f}\\u{85}"')
    expect(rustDebugString('é 日本 🙂')).toBe('"é 日本 🙂"')
    expect(rustDebugString('e\u0301 \u00a0 \u200b \u2028')).toBe('"e\\u{301} \\u{a0} \\u{200b} \\u{2028}"')
  })

  it('rustLineCount counts lines like str::lines(): a final newline adds none', () => {
    expect(rustLineCount('')).toBe(0)
    expect(rustLineCount('a')).toBe(1)
    expect(rustLineCount('a\n')).toBe(1)
    expect(rustLineCount('\n')).toBe(1)
    expect(rustLineCount('a\nb')).toBe(2)
    expect(rustLineCount('a\n\n')).toBe(2)
    expect(rustLineCount('a\r\nb\r\n')).toBe(2)
  })

  it('rustTrim strips Unicode White_Space, not U+FEFF', () => {
    expect(rustTrim(' \t\n\u00a0\u3000x y\u2029\u0085 ')).toBe('x y')
    expect(rustTrim('\ufeffx')).toBe('\ufeffx')
    expect(trimmedNonEmpty(' \n ')).toBeUndefined()
    expect(trimmedNonEmpty(undefined)).toBeUndefined()
    expect(trimmedNonEmpty(' r ')).toBe('r')
  })
})
