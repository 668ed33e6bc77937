import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  appendRuleAmendment,
  CodexRulesError,
  loadCodexExecPolicy,
  loadCodexRules,
  parseRules,
  ruleAmendmentLine,
} from '../src/config/guardrails/index.js'
import { put, tempRoot } from './fixtures/config/layout.js'

const rule = (word: string) => `prefix_rule(pattern=["${word}"])\n`
const words = (rules: ReturnType<typeof loadCodexRules>) => rules.map((loaded) => loaded.pattern[0])

describe('loadCodexRules', () => {
  it('reads <codexHome>/rules then each project .codex/rules, each folder sorted by bytes, *.rules regular files only', () => {
    // core exec_policy.rs: layers lowest precedence first; `collect_policy_files` keeps `extension() == "rules"` and
    // `file_type().is_file()`, then sorts the paths.
    const root = tempRoot()
    const home = join(root, 'home')
    put(home, 'rules/b.rules', rule('home-b'))
    put(home, 'rules/B.rules', rule('home-B'))
    put(home, 'rules/a.rules', rule('home-a'))
    put(home, 'rules/notes.txt', rule('txt'))
    put(home, 'rules/.rules', rule('dotfile'))
    put(home, 'rules/nested/c.rules', rule('nested'))
    put(root, 'elsewhere/z.rules', rule('linked'))
    symlinkSync(join(root, 'elsewhere/z.rules'), join(home, 'rules/z.rules'))
    put(root, 'repo/.codex/rules/p.rules', rule('project'))
    put(root, 'repo/pkg/.codex/rules/q.rules', rule('subproject'))
    mkdirSync(join(root, 'repo/empty/.codex'), { recursive: true })
    const projectDotCodexDirs = [join(root, 'repo/.codex'), join(root, 'repo/empty/.codex'), join(root, 'repo/pkg/.codex')]
    const rules = loadCodexRules({ codexHome: home, projectDotCodexDirs })
    expect(words(rules)).toEqual(['home-B', 'home-a', 'home-b', 'project', 'subproject'])
    expect(rules[0]?.source).toBe(join(home, 'rules/B.rules'))
  })

  it('is empty without rules folders', () => {
    expect(loadCodexRules({ codexHome: join(tempRoot(), 'none') })).toEqual([])
  })

  it('carries host_executable from earlier files into the example checks of later ones', () => {
    const root = tempRoot()
    put(root, 'rules/a.rules', 'host_executable(name="git", paths=["/opt/git"])\n')
    const later = put(root, 'rules/b.rules', 'prefix_rule(pattern=["git"], match=["/usr/bin/git status"])\n')
    expect(() => loadCodexRules({ codexHome: root })).toThrow(`${later}:1:1: expected every example to match at least one rule.`)
    put(root, 'rules/b.rules', 'prefix_rule(pattern=["git"], match=["/opt/git status"])\n')
    const policy = loadCodexExecPolicy({ codexHome: root })
    expect(policy.rules).toEqual([{ pattern: ['git'], decision: 'allow', source: later }])
    expect(policy.hostExecutables).toEqual(new Map([['git', ['/opt/git']]]))
  })

  it('refuses the whole policy on one bad file, naming it (Codex 0.169.0 silently drops every rule instead)', () => {
    // Observed: a `decision="deny"` file in CODEX_HOME/rules left no rule in `debug prompt-input`'s "Approved command
    // prefixes" and no warning, exit 0 (1 run, against 2 runs listing both rules without it).
    const root = tempRoot()
    put(root, 'home/rules/a.rules', rule('fine'))
    const bad = put(root, 'repo/.codex/rules/x.rules', 'prefix_rule(pattern=["rm"], decision="deny")\n')
    let error: unknown
    try {
      loadCodexRules({ codexHome: join(root, 'home'), projectDotCodexDirs: [join(root, 'repo/.codex')] })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(CodexRulesError)
    expect((error as CodexRulesError).source).toBe(bad)
    expect((error as CodexRulesError).message).toBe(`${bad}:1:1: invalid decision: deny`)
  })
})

describe('rule amendments (acceptWithExecpolicyAmendment)', () => {
  it('is the line Codex appends: JSON-quoted words, decision allow', () => {
    // execpolicy amend.rs `blocking_append_allow_prefix_rule` and its test.
    expect(ruleAmendmentLine(['echo', 'Hello, world!'])).toBe('prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")')
    const odd = ['say', 'a "quoted" \\ word', 'tab\there', 'é', '\u001b']
    const line = ruleAmendmentLine(odd)
    expect(line).toBe('prefix_rule(pattern=["say", "a \\"quoted\\" \\\\ word", "tab\\there", "é", "\\u001b"], decision="allow")')
    expect(parseRules({ text: line, file: 'default.rules' }).rules).toEqual([{ pattern: odd, decision: 'allow', source: 'default.rules' }])
    expect(() => ruleAmendmentLine([])).toThrow('prefix rule requires at least one token')
  })

  it('creates rules/default.rules, appends once, and adds a missing final newline first', () => {
    const codexHome = join(tempRoot(), 'home')
    const path = join(codexHome, 'rules/default.rules')
    expect(appendRuleAmendment({ codexHome, prefix: ['echo', 'Hello, world!'] })).toEqual({ path, added: true })
    expect(readFileSync(path, 'utf8')).toBe('prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")\n')
    expect(appendRuleAmendment({ codexHome, prefix: ['echo', 'Hello, world!'] })).toEqual({ path, added: false })
    put(codexHome, 'rules/default.rules', 'prefix_rule(pattern=["ls"], decision="allow")')
    appendRuleAmendment({ codexHome, prefix: ['npm', 'test'] })
    expect(readFileSync(path, 'utf8')).toBe(
      'prefix_rule(pattern=["ls"], decision="allow")\nprefix_rule(pattern=["npm", "test"], decision="allow")\n',
    )
    expect(words(loadCodexRules({ codexHome }))).toEqual(['ls', 'npm'])
  })
})
