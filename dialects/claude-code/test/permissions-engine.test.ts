/**
 * Claude Code's permission decision (rules, then the mode) against what Claude Code 2.1.332 did with the same settings
 * and the same call (`claude -p` against a fake model, one run per row; texts byte for byte).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { SettingsDocument } from '../src/config/settings-document.js'
import type { PermissionMode } from '../src/io/payload.js'
import { checkBeforeHooks, decidePermission, PERMISSION_TEXTS, resolvePermissionSettings } from '../src/permissions/index.js'
import type { ClaudeHookSource } from '../src/types.js'

const root = mkdtempSync(join(tmpdir(), 'hk-claude-perm-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const P = join(root, 'proj')
mkdirSync(join(P, 'src'), { recursive: true })
writeFileSync(join(P, '.env'), 'SECRET=1\n')

function document(
  permissions: Record<string, unknown>,
  source: ClaudeHookSource = 'project',
  extra: Record<string, unknown> = {},
): SettingsDocument {
  return { report: { source, path: join(P, '.claude', 'settings.json'), found: true }, content: { permissions, ...extra } }
}

function settingsOf(documents: SettingsDocument[], trusted = true) {
  const warnings: string[] = []
  const settings = resolvePermissionSettings(documents, { projectDir: P, trust: { trusted, trustFile: '/c/.claude.json' } }, warnings)
  return { settings, warnings }
}

function decide(permissions: Record<string, unknown>, toolName: string, input: Record<string, unknown>, mode?: PermissionMode) {
  const { settings } = settingsOf([document(permissions)])
  const context = { mode, cwd: P, workingDirectories: [P, ...settings.additionalDirectories] }
  return checkBeforeHooks(settings, { toolName, input }, context) ?? decidePermission(settings, { toolName, input }, context)
}

const bash = (command: string) => ({ command, description: `run ${command}` })
const deniedBash = (command: string) => ({ behavior: 'deny', message: PERMISSION_TEXTS.bashDenied(command) })

describe('deny rules (every mode, bypassPermissions included)', () => {
  const rm = { deny: ['Bash(rm:*)'] }
  it.each([
    `rm -f ${P}/x`,
    `echo a && rm -f ${P}/x`,
    `echo a; rm -f ${P}/x`,
    `true || rm -f ${P}/x`,
    `(rm -f ${P}/x)`,
    `echo $(rm -f ${P}/x)`,
    `timeout 5 rm -f ${P}/x`,
    `nohup rm -f ${P}/x`,
    `time rm -f ${P}/x`,
    `nice rm -f ${P}/x`,
    `env rm -f ${P}/x`,
    `env FOO=1 rm -f ${P}/x`,
    `sudo rm -f ${P}/x`,
    `stdbuf -o0 rm -f ${P}/x`,
    `command rm -f ${P}/x`,
    `FOO=1 rm -f ${P}/x`,
    `/bin/rm -f ${P}/x`,
    '\\rm -f x',
    'exec rm -f x',
    '"rm" -f x',
    "r''m -f x",
    'watch -n1 -g rm -f x',
  ])('Bash(rm:*) denies %s, naming the whole line', (command) => {
    for (const mode of [undefined, 'default', 'bypassPermissions'] as const) {
      expect(decide(rm, 'Bash', bash(command), mode)).toMatchObject(deniedBash(command))
    }
  })

  it('a rule matching only a command of a `sh -c` script asks, with Claude Code’s reason, even under bypassPermissions', () => {
    for (const command of [`bash -c "rm -f ${P}/x"`, "sh -c 'rm -f x'"]) {
      expect(decide(rm, 'Bash', bash(command), 'bypassPermissions')).toMatchObject({
        behavior: 'ask',
        message: PERMISSION_TEXTS.deniedInShellScript,
      })
    }
  })

  it('leaves commands that do not run rm alone', () => {
    for (const command of ['git -C . rm -q --cached nothing 2>/dev/null; true', 'echo rm', 'rmdir d']) {
      expect(decide(rm, 'Bash', bash(command), 'bypassPermissions')).toEqual({ behavior: 'allow' })
    }
  })

  it('a Read or Edit deny refuses the file before any hook, in every mode; Edit covers Write', () => {
    expect(decide({ deny: ['Read(./.env)'] }, 'Read', { file_path: join(P, '.env') }, 'bypassPermissions')).toBe(
      PERMISSION_TEXTS.fileDenied,
    )
    expect(decide({ deny: ['Edit(./src/**)'] }, 'Write', { file_path: join(P, 'src/a.ts'), content: 'x' })).toBe(
      PERMISSION_TEXTS.fileDenied,
    )
    expect(decide({ deny: ['Edit(./src/**)'] }, 'Edit', { file_path: join(P, 'src/e.ts') }, 'bypassPermissions')).toBe(
      PERMISSION_TEXTS.fileDenied,
    )
    expect(decide({ deny: ['Edit(./src/**)'] }, 'Write', { file_path: join(P, 'a.ts'), content: 'x' }, 'bypassPermissions')).toEqual({
      behavior: 'allow',
    })
  })

  it('a link counts as where it leads: a denied file read through a link is refused after the hooks, naming the link', () => {
    const link = join(P, 'innocent.txt')
    symlinkSync(join(P, '.env'), link)
    expect(decide({ deny: ['Read(./.env)'] }, 'Read', { file_path: link }, 'bypassPermissions')).toMatchObject({
      behavior: 'deny',
      message: `Permission to read ${link} has been denied.`,
    })
  })

  it('a Read deny also refuses a command that names the file (not a glob)', () => {
    for (const command of [`cat ${P}/.env`, 'cat .env', 'head -1 .env', 'cat < .env', 'cp .env y && cat y']) {
      expect(decide({ deny: ['Read(./.env)'] }, 'Bash', bash(command), 'bypassPermissions'), command).toEqual({
        behavior: 'deny',
        message: PERMISSION_TEXTS.bashDenied(command),
        rule: expect.objectContaining({ text: 'Read(./.env)' }),
      })
    }
    for (const command of ['grep -r SECRET .', 'cat ./.e*', 'command grep -r SECRET . 2>&1 | command grep -F .env']) {
      expect(decide({ deny: ['Read(./.env)'] }, 'Bash', bash(command), 'bypassPermissions'), command).toEqual({ behavior: 'allow' })
    }
  })

  it('a pipeline’s denial names the part that is denied', () => {
    expect(decide({ deny: ['Bash(rm:*)'] }, 'Bash', bash('echo a | xargs rm -f'), 'bypassPermissions')).toMatchObject(
      deniedBash('xargs rm -f'),
    )
  })

  it('a tool-wide deny takes the tool away', () => {
    expect(decide({ deny: ['Write'] }, 'Write', { file_path: join(P, 'w.txt'), content: 'x' }, 'bypassPermissions')).toBe(
      '<tool_use_error>Error: No such tool available: Write. Write is disabled for this session, in subagents as well as here.</tool_use_error>',
    )
  })
})

describe('ask and allow rules', () => {
  it('an ask rule asks in every mode, with the generic reason', () => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      expect(decide({ ask: ['Bash(git push:*)'] }, 'Bash', bash('git push origin main'), mode)).toMatchObject({
        behavior: 'ask',
        message: "Claude requested permissions to use Bash, but you haven't granted it yet.",
      })
    }
    expect(decide({ ask: ['Read'] }, 'Read', { file_path: join(P, 'f.txt') }, 'bypassPermissions')).toMatchObject({
      behavior: 'ask',
      message: `Claude requested permissions to read from ${join(P, 'f.txt')}, but you haven't granted it yet.`,
    })
  })

  it('deny beats ask beats allow, whatever their order or specificity', () => {
    const permissions = { allow: ['Bash(git push origin main)'], ask: ['Bash(git push:*)'], deny: ['Bash(git push --force:*)'] }
    expect(decide(permissions, 'Bash', bash('git push origin main'), 'default')).toMatchObject({ behavior: 'ask' })
    expect(decide(permissions, 'Bash', bash('git push --force origin'), 'default')).toMatchObject({ behavior: 'deny' })
  })

  it('an allow rule covers a compound line only when it covers every part; wrappers are looked through', () => {
    const allow = { allow: ['Bash(touch:*)'] }
    for (const command of [
      `touch ${P}/a && touch ${P}/b`,
      `timeout 5 touch ${P}/a`,
      `nice touch ${P}/a`,
      `nohup touch ${P}/a`,
      `env touch ${P}/a`,
      'echo a | xargs touch',
      `bash -c "touch ${P}/a"`,
    ]) {
      expect(decide(allow, 'Bash', bash(command), 'default'), command).toMatchObject({ behavior: 'allow' })
    }
    expect(decide(allow, 'Bash', bash(`touch ${P}/a && rm -f ${P}/a`), 'default')).toMatchObject({
      behavior: 'ask',
      message: `rm in '${P}/a' needs approval. The path is inside the working directories for this session ('${P}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
    })
  })

  it('an allow rule covers a command, not the file its redirection writes (observed with `Bash(echo:*)`)', () => {
    expect(decide({ allow: ['Bash(echo:*)'] }, 'Bash', bash(`echo a > ${P}/o.txt`), 'default')).toEqual({
      behavior: 'ask',
      message: `Output redirection to '${P}/o.txt' needs approval. The path is inside the working directories for this session ('${P}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
      suggestions: [{ type: 'addDirectories', directories: [P], destination: 'session' }],
    })
    expect(decide({ allow: ['Bash(echo:*)'] }, 'Bash', bash('echo a 2>&1'), 'default')).toMatchObject({ behavior: 'allow' })
  })

  it('asks Claude Code offers no rule for carry no suggestions', () => {
    expect(decide({ deny: ['Bash(rm:*)'] }, 'Bash', bash('bash -c "rm -f x"'), 'default')).toMatchObject({ suggestions: [] })
    expect(decide({}, 'Bash', bash('find . -name x -exec rm {} \\;'), 'default')).toMatchObject({ suggestions: [] })
    expect(decide({}, 'Bash', bash('python3 -c "print(1)"'), 'default')).toMatchObject({
      suggestions: [
        {
          type: 'addRules',
          rules: [{ toolName: 'Bash', ruleContent: 'python3 -c "print(1)"' }],
          behavior: 'allow',
          destination: 'localSettings',
        },
      ],
    })
  })

  it('the legacy prefix and the wildcard forms', () => {
    // `:*` ends at a word: `npm run test:unit` is not `npm run test` with arguments (observed).
    expect(decide({ allow: ['Bash(npm run test:*)'] }, 'Bash', bash('npm run test'), 'default')).toMatchObject({ behavior: 'allow' })
    expect(decide({ allow: ['Bash(npm run test:*)'] }, 'Bash', bash('npm run test -- --watch'), 'default')).toMatchObject({
      behavior: 'allow',
    })
    for (const command of ['npm run test:unit', 'npm run testx']) {
      expect(decide({ allow: ['Bash(npm run test:*)'] }, 'Bash', bash(command), 'default')).toMatchObject({
        behavior: 'ask',
        message: 'This command requires approval',
      })
    }
    expect(decide({ allow: ['Bash(git * main)'] }, 'Bash', bash('git push origin main'), 'default')).toMatchObject({ behavior: 'allow' })
    expect(decide({ allow: ['Bash(git * main)'] }, 'Bash', bash('git checkout main'), 'default')).toMatchObject({ behavior: 'allow' })
    expect(decide({ allow: ['Bash(git * main)'] }, 'Bash', bash('git main'), 'default')).toMatchObject({ behavior: 'ask' })
  })
})

describe('modes, for calls no rule decides', () => {
  const none = {}
  it('default: reads run; commands that change files, edits and other commands ask, with Claude Code’s reasons', () => {
    expect(decide(none, 'Bash', bash('ls'), 'default')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash('git status --short'), 'default')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash('echo a | wc -c'), 'default')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash('timeout 5 ls'), 'default')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Read', { file_path: join(P, 'f.txt') }, 'default')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash(`touch ${P}/a.txt`), 'default')).toEqual({
      behavior: 'ask',
      message: `touch in '${P}/a.txt' needs approval. The path is inside the working directories for this session ('${P}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
      suggestions: [
        { type: 'addDirectories', directories: [P], destination: 'session' },
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      ],
    })
    const asks: [string, string][] = [
      ['nohup ls', 'This command requires approval'],
      ['sudo ls', 'This command requires approval'],
      ['bash -c "ls"', 'This command requires approval'],
      ['python3 -c "print(1)"', 'This command requires approval'],
      [`echo a | tee ${P}/b`, `This Bash command contains multiple operations. The following part requires approval: tee ${P}/b`],
      [`(touch ${P}/b)`, 'This command uses shell operators that require approval for safety'],
      [`echo $(touch ${P}/b)`, "A nested command in this command can't be checked before it runs"],
      ['eval "rm -f x"', "'eval' evaluates arguments as shell code"],
      [
        'find . -name x -exec rm {} \\;',
        "find with '-exec' executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule",
      ],
      [
        `echo a > ${P}/b`,
        `Output redirection to '${P}/b' needs approval. The path is inside the working directories for this session ('${P}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
      ],
    ]
    for (const [command, message] of asks)
      expect(decide(none, 'Bash', bash(command), 'default'), command).toMatchObject({ behavior: 'ask', message })
    expect(decide(none, 'Bash', bash('cat /etc/hostname'), 'default')).toMatchObject({
      behavior: 'ask',
      message: `cat in '/etc/hostname' was blocked. For security, Claude Code may only concatenate files from the allowed working directories for this session: '${P}'.`,
    })
    expect(decide(none, 'Write', { file_path: join(P, 'w.txt'), content: 'x' }, 'default')).toEqual({
      behavior: 'ask',
      message: `Claude requested permissions to write to ${join(P, 'w.txt')}, but you haven't granted it yet.`,
      suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    })
    expect(decide(none, 'Write', { file_path: '/tmp/hk-out.txt', content: 'x' }, 'default')).toEqual({
      behavior: 'ask',
      message: "Claude requested permissions to write to /tmp/hk-out.txt, but you haven't granted it yet.",
      suggestions: [
        { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
        { type: 'addDirectories', directories: ['/tmp'], destination: 'session' },
      ],
    })
  })

  it('acceptEdits: edits and file commands in the working directories run; outside they ask', () => {
    for (const command of [`mkdir ${P}/d`, `touch ${P}/t`, `rm ${P}/t`]) {
      expect(decide(none, 'Bash', bash(command), 'acceptEdits'), command).toEqual({ behavior: 'allow' })
    }
    expect(decide(none, 'Write', { file_path: join(P, 'w.txt'), content: 'x' }, 'acceptEdits')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash('touch /tmp/hk-out2.txt'), 'acceptEdits')).toEqual({
      behavior: 'ask',
      message: `touch in '/tmp/hk-out2.txt' needs approval. The path is outside the working directories for this session ('${P}'). Allowing runs the command as written.`,
      suggestions: [{ type: 'addDirectories', directories: ['/tmp'], destination: 'session' }],
    })
    expect(decide(none, 'Write', { file_path: '/tmp/hk-out.txt', content: 'x' }, 'acceptEdits')).toMatchObject({
      behavior: 'ask',
      suggestions: [{ type: 'addDirectories', directories: ['/tmp'], destination: 'session' }],
    })
    expect(decide(none, 'Bash', bash('git push origin main'), 'acceptEdits')).toMatchObject({ behavior: 'ask' })
  })

  it('dontAsk: what would ask is refused; allowed calls run', () => {
    expect(decide(none, 'Bash', bash(`touch ${P}/t2`), 'dontAsk')).toEqual({ behavior: 'deny', message: PERMISSION_TEXTS.dontAsk('Bash') })
    expect(PERMISSION_TEXTS.dontAsk('Write')).toMatch(
      /^Permission to use Write has been denied because Claude Code is running in don't ask mode\. IMPORTANT: You \*may\* attempt .* Let the user decide how to proceed\.$/,
    )
    expect(decide({ allow: ['Bash(touch:*)'] }, 'Bash', bash(`touch ${P}/t2`), 'dontAsk')).toMatchObject({ behavior: 'allow' })
    expect(decide(none, 'Read', { file_path: join(P, 'f.txt') }, 'dontAsk')).toEqual({ behavior: 'allow' })
  })

  it('plan: reads run, an edit asks why it cannot be written, a command is refused as the classifier cannot run', () => {
    expect(decide(none, 'Bash', bash('ls'), 'plan')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Write', { file_path: join(P, 'w.txt'), content: 'x' }, 'plan')).toEqual({
      behavior: 'ask',
      message: `Cannot write to ${join(P, 'w.txt')} while in plan mode.`,
    })
    expect(decide(none, 'Bash', bash(`touch ${P}/t2`), 'plan')).toEqual({
      behavior: 'deny',
      message:
        "Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. Other actions that need the check will be denied too, and retrying won't help. Finish what you can without them, then tell the user what is blocked and that they can switch to another permission mode.",
      permissionDenied: 'Classifier unavailable',
    })
  })

  it('auto: edits in the working directories run; what needs the classifier is refused', () => {
    expect(decide(none, 'Bash', bash(`rm -rf ${P}/t`), 'auto')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Write', { file_path: join(P, 'w.txt'), content: 'x' }, 'auto')).toEqual({ behavior: 'allow' })
    expect(decide(none, 'Bash', bash('curl -s http://127.0.0.1:1/'), 'auto')).toMatchObject({
      behavior: 'deny',
      message: PERMISSION_TEXTS.classifierUnavailable('Bash'),
      permissionDenied: 'Classifier unavailable',
    })
    expect(decide(none, 'Write', { file_path: '/tmp/hk-out.txt', content: 'x' }, 'auto')).toMatchObject({
      message: PERMISSION_TEXTS.classifierUnavailable('Write'),
    })
  })

  it('no mode named: only rules speak', () => {
    expect(decide(none, 'Bash', bash('rm -rf /'), undefined)).toEqual({ behavior: 'passthrough' })
    expect(decide({ allow: ['Bash(ls:*)'] }, 'Bash', bash('ls'), undefined)).toMatchObject({ behavior: 'allow' })
  })
})

describe('settings', () => {
  it('rule arrays merge across sources; managed allowManagedPermissionRulesOnly keeps only managed rules', () => {
    const managed = document({ deny: ['Bash(curl:*)'] }, 'managed', { allowManagedPermissionRulesOnly: true })
    const project = document({ allow: ['Bash'], deny: ['Bash(rm:*)'] })
    expect(settingsOf([project]).settings.rules.map((rule) => rule.text)).toEqual(['Bash(rm:*)', 'Bash'])
    expect(settingsOf([managed, project]).settings.rules.map((rule) => rule.text)).toEqual(['Bash(curl:*)'])
  })

  it('allowManagedPermissionRulesOnly counts only in managed settings; an unusable managed file keeps only managed rules', () => {
    const { settings, warnings } = settingsOf([document({ allow: ['Bash'] }, 'project', { allowManagedPermissionRulesOnly: true })])
    expect(settings.rules).toHaveLength(1)
    expect(warnings[0]).toMatch(/allowManagedPermissionRulesOnly counts only in managed settings/)
    const broken: SettingsDocument = {
      report: { source: 'managed', path: '/etc/m.json', found: true, error: 'bad JSON' },
      content: undefined,
    }
    expect(settingsOf([broken, document({ allow: ['Bash'] })]).settings.rules).toEqual([])
  })

  it('the first source that names a mode wins; a project cannot grant itself bypassPermissions', () => {
    const user = document({ defaultMode: 'acceptEdits' }, 'user')
    expect(settingsOf([document({ defaultMode: 'plan' }, 'local'), user]).settings.defaultMode?.mode).toBe('plan')
    const { settings, warnings } = settingsOf([document({ defaultMode: 'bypassPermissions' }), user])
    expect(settings.defaultMode?.mode).toBe('acceptEdits')
    expect(warnings[0]).toMatch(/bypassPermissions" is not taken from project settings/)
    expect(settingsOf([document({ defaultMode: 'bypassPermissions' }, 'user')]).settings.defaultMode?.mode).toBe('bypassPermissions')
    // Alone, the project's refused bypassPermissions leaves the session in default mode, as Claude Code starts it.
    expect(settingsOf([document({ defaultMode: 'bypassPermissions' })]).settings.defaultMode?.mode).toBe('default')
  })

  it('an untrusted project’s additionalDirectories are ignored with Claude Code’s warning', () => {
    const project = document({ additionalDirectories: ['/tmp/extra'] })
    expect(settingsOf([project]).settings.additionalDirectories).toEqual(['/tmp/extra'])
    const { settings, warnings } = settingsOf([project], false)
    expect(settings.additionalDirectories).toEqual([])
    expect(warnings).toEqual([
      `Ignoring 1 permissions.additionalDirectories entry from .claude/settings.json: this workspace has not been trusted. Run Claude Code interactively here once and accept the trust dialog, or set projects[${JSON.stringify(P)}].hasTrustDialogAccepted: true in /c/.claude.json.`,
    ])
    expect(settingsOf([document({ additionalDirectories: ['/tmp/extra'] }, 'user')], false).settings.additionalDirectories).toEqual([
      '/tmp/extra',
    ])
  })

  it('a malformed rule is skipped with a warning naming it; the valid rules beside it still hold', () => {
    const { settings, warnings } = settingsOf([document({ deny: ['Bash(rm', 42, '', 'Bash()', 'Bash(:*)', 'Bash(rm:*)'], allow: 'Bash' })])
    expect(settings.rules.map((rule) => rule.text)).toEqual(['Bash(rm:*)'])
    expect(warnings).toHaveLength(6)
    expect(warnings.join('\n')).toMatch(/"Bash\(rm" is not a rule/)
    expect(warnings.join('\n')).toMatch(/permissions.allow must be an array/)
  })
})
