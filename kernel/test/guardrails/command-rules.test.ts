import { describe, expect, it } from 'vitest'
import { evaluateCommandLine, isIgnoredAllowPrefix, matchCommandRules } from '../../src/guardrails/command-safety/index.js'
import type { CommandRule } from '../../src/guardrails/types.js'

const allow = (...pattern: CommandRule['pattern']): CommandRule => ({ pattern, decision: 'allow' })
const prompt = (...pattern: CommandRule['pattern']): CommandRule => ({ pattern, decision: 'prompt' })
const forbidden = (...pattern: CommandRule['pattern']): CommandRule => ({ pattern, decision: 'forbidden' })

describe('matchCommandRules', () => {
  // Codex's tests of the exec policy (codex-rs/execpolicy/tests/basic.rs), by test name.
  it('basic_match', () => {
    const rule = allow('git', 'status')
    expect(matchCommandRules([rule], ['git', 'status'])).toEqual({ decision: 'allow', matched: [rule] })
  })

  it('justification_is_attached_to_forbidden_matches', () => {
    const rule: CommandRule = { pattern: ['rm'], decision: 'forbidden', justification: 'destructive command' }
    expect(matchCommandRules([rule], ['rm', '-rf', '/some/important/folder'])).toEqual({ decision: 'forbidden', matched: [rule] })
  })

  it('strictest_decision_wins_across_matches (and parses_multiple_policy_files)', () => {
    const git = prompt('git')
    const commit = forbidden('git', 'commit')
    expect(matchCommandRules([git, commit], ['git', 'status'])).toEqual({ decision: 'prompt', matched: [git] })
    expect(matchCommandRules([git, commit], ['git', 'commit', '-m', 'hi'])).toEqual({ decision: 'forbidden', matched: [git, commit] })
  })

  it('only_first_token_alias_expands_to_multiple_rules: any position may list alternatives', () => {
    const rule = allow(['bash', 'sh'], ['-c', '-l'])
    expect(matchCommandRules([rule], ['bash', '-c', 'echo', 'hi']).decision).toBe('allow')
    expect(matchCommandRules([rule], ['sh', '-l', 'echo', 'hi']).decision).toBe('allow')
    expect(matchCommandRules([rule], ['zsh', '-c', 'echo']).decision).toBeUndefined()
  })

  it('tail_aliases_are_not_cartesian_expanded', () => {
    const rule = allow('npm', ['i', 'install'], ['--legacy-peer-deps', '--no-save'])
    expect(matchCommandRules([rule], ['npm', 'i', '--legacy-peer-deps']).decision).toBe('allow')
    expect(matchCommandRules([rule], ['npm', 'install', '--no-save', 'leftpad']).decision).toBe('allow')
    expect(matchCommandRules([rule], ['npm', 'install', 'leftpad']).decision).toBeUndefined()
  })

  it('match_and_not_match_examples_are_enforced: a prefix is matched token by token, from the start', () => {
    const rule = allow('git', 'status')
    expect(matchCommandRules([rule], ['git', '--config', 'color.status=always', 'status'])).toEqual({ decision: undefined, matched: [] })
  })

  it.each<[string, CommandRule[], string[], CommandRule['decision'] | undefined]>([
    ['a longer argv matches (guardrails.md §3)', [allow('npm', 'test')], ['npm', 'test', '--watch'], 'allow'],
    ['the strictest of all matches wins (guardrails.md §3)', [allow('git'), prompt('git', ['push', 'fetch'])], ['git', 'push'], 'prompt'],
    ['a shorter argv does not match', [allow('npm', 'test')], ['npm'], undefined],
    ['a raw `bash -lc` argv is not split (guardrails.md §3)', [prompt('git', 'push')], ['bash', '-lc', 'git push'], undefined],
    ['a path is not the program without resolution', [prompt('git', 'push')], ['/usr/bin/git', 'push'], undefined],
    ['an empty pattern matches nothing', [allow()], ['ls'], undefined],
    ['an empty argv matches nothing', [allow('ls')], [], undefined],
  ])('%s', (_case, rules, argv, decision) => {
    expect(matchCommandRules(rules, argv).decision).toBe(decision)
  })

  it('host_executable_resolution_falls_back_without_mapping: with resolution, a path matches the rules of its name', () => {
    const rule = prompt('git')
    const options = { resolveHostExecutables: true }
    expect(matchCommandRules([rule], ['/usr/bin/git', 'status'], options)).toEqual({ decision: 'prompt', matched: [rule] })
    expect(matchCommandRules([rule], ['./git', 'status'], options).decision).toBe('prompt')
    expect(matchCommandRules([rule], ['/usr/bin/', 'status'], options).decision).toBeUndefined()
  })

  it('host_executable_resolution_does_not_override_exact_match', () => {
    const exact = allow('/usr/bin/git')
    const byName = prompt('git')
    expect(matchCommandRules([exact, byName], ['/usr/bin/git', 'status'], { resolveHostExecutables: true })).toEqual({
      decision: 'allow',
      matched: [exact],
    })
  })
})

/*
 * What evaluateCommandLine promises, each as observed with codex-cli 0.169.0 (`codex app-server`, `.rules` files in
 * CODEX_HOME/rules, a fake model calling `exec_command`): a forbidden line was refused with "`…` rejected: …", a
 * prompt one asked, an allowed one ran outside the read-only sandbox (it could write), and an unmatched one was left
 * to Codex's own checks.
 */
describe('evaluateCommandLine', () => {
  it('evaluates each plain segment: the strictest decision wins, whichever segment it came from', () => {
    const rules = [forbidden('echo', 'forbid'), allow('ls')]
    const result = evaluateCommandLine(rules, 'ls && echo forbid')
    expect(result).toEqual({
      decision: 'forbidden',
      matched: [rules[1], rules[0]],
      decisive: rules[0],
      commands: [['ls'], ['echo', 'forbid']],
      unmatched: [],
      plain: true,
    })
    expect(evaluateCommandLine(rules, "echo 'forbid'").decision).toBe('forbidden')
    expect(evaluateCommandLine(rules, 'echo  forbid x').decision).toBe('forbidden')
  })

  it('allows only when a rule allows every segment; otherwise leaves the unmatched segments to Codex', () => {
    const rules = [allow('touch'), allow('true')]
    expect(evaluateCommandLine(rules, 'touch a7 && true').decision).toBe('allow')
    expect(evaluateCommandLine(rules, 'echo hi | touch a11').decision).toBeUndefined()
    const partial = evaluateCommandLine(rules, 'touch a2 && ls')
    expect(partial).toMatchObject({ decision: undefined, matched: [rules[0]], unmatched: [['ls']] })
    expect(evaluateCommandLine([allow('touch'), allow('echo')], 'echo hi | touch a11').decision).toBe('allow')
  })

  it('gives the most specific rule of the winning decision, as Codex words its reasons', () => {
    const mkdir = allow('mkdir')
    const mkdirP = prompt('mkdir', '-p')
    expect(evaluateCommandLine([mkdir, mkdirP], 'mkdir -p d1')).toMatchObject({ decision: 'prompt', decisive: mkdirP })
    expect(evaluateCommandLine([mkdir, mkdirP], 'mkdir d2')).toMatchObject({ decision: 'allow', decisive: mkdir })
    const broad = forbidden('git')
    const narrow: CommandRule = { pattern: ['git', 'push'], decision: 'forbidden', justification: 'no pushing' }
    expect(evaluateCommandLine([narrow, broad], 'git push origin').decisive).toBe(narrow)
  })

  it.each([
    ['a redirection', 'echo forbid > /dev/null'],
    ['a command substitution', 'echo $(echo forbid)'],
    ['a quoted command name', '"echo" forbid'],
    ['an escape', 'echo forbid\\ x'],
    ['a heredoc (Codex 0.169.0 has no heredoc prefix parsing)', 'echo forbid <<EOF\nx\nEOF'],
  ])('evaluates a line that is not plain (%s) whole, as /bin/bash -lc <line>', (_reason, line) => {
    const rules = [forbidden('echo', 'forbid'), prompt('cat')]
    expect(evaluateCommandLine(rules, line)).toEqual({
      decision: undefined,
      matched: [],
      decisive: undefined,
      commands: [['/bin/bash', '-lc', line]],
      unmatched: [['/bin/bash', '-lc', line]],
      plain: false,
    })
  })

  it('lets rules on the shell itself match a line evaluated whole, with the shell given', () => {
    expect(evaluateCommandLine([prompt('bash', '-lc')], 'ls > out').decision).toBe('prompt')
    expect(evaluateCommandLine([prompt('/bin/bash', '-lc', 'ls > out')], 'ls > out').decision).toBe('prompt')
    expect(evaluateCommandLine([prompt('sh', '-c')], 'ls > out', { shell: ['/bin/sh', '-c'] })).toMatchObject({
      decision: 'prompt',
      commands: [['/bin/sh', '-c', 'ls > out']],
    })
  })

  it('does not split a nested shell: `bash -lc "git push"` escapes a rule on git push', () => {
    expect(evaluateCommandLine([prompt('git', 'push')], "bash -lc 'git push'").decision).toBeUndefined()
    expect(evaluateCommandLine([prompt('git', 'push')], 'git push').decision).toBe('prompt')
  })

  it('matches a program given by path by its name', () => {
    const rules = [prompt('git', ['push', 'fetch']), allow('touch')]
    expect(evaluateCommandLine(rules, '/usr/bin/git push').decision).toBe('prompt')
    expect(evaluateCommandLine(rules, './git push').decision).toBe('prompt')
    expect(evaluateCommandLine(rules, '../../../../usr/bin/touch a10').decision).toBe('allow')
  })

  it('disregards allow rules broad enough to allow any code, and honours longer ones and other decisions', () => {
    expect(evaluateCommandLine([allow('git')], 'git status')).toMatchObject({
      decision: undefined,
      matched: [],
      unmatched: [['git', 'status']],
    })
    expect(evaluateCommandLine([allow('git', 'status')], 'git status').decision).toBe('allow')
    expect(evaluateCommandLine([allow('rm')], 'rm -f nx').decision).toBeUndefined()
    expect(evaluateCommandLine([allow('rm', '-rf')], 'rm -rf nx').decision).toBe('allow')
    expect(evaluateCommandLine([allow('python3')], "python3 -c 'print(1)'").decision).toBeUndefined()
    expect(evaluateCommandLine([allow('python3'), allow('python3', '-c')], 'python3 -c 1').decision).toBeUndefined()
    expect(evaluateCommandLine([allow('python3')], '/usr/bin/python3 x.py').decision).toBeUndefined()
    expect(evaluateCommandLine([allow('node', 'ok.js')], 'node ok.js').decision).toBe('allow')
    expect(evaluateCommandLine([allow('bash', '-lc')], 'ls > out').decision).toBeUndefined()
    expect(evaluateCommandLine([forbidden('python3')], 'python3 zzq').decision).toBe('forbidden')
    expect(evaluateCommandLine([prompt('git')], 'git zzq').decision).toBe('prompt')
    // The rule, not the command, counts: the pattern covers the tokens it matched.
    expect(matchCommandRules([allow('git')], ['git', 'status']).decision).toBe('allow')
  })

  it.each([
    ['python3', true],
    ['python3 -c', true],
    ['bash -lc', true],
    ['/bin/bash -lc', true],
    ['env', true],
    ['sudo', true],
    ['git', true],
    ['rm', true],
    ['Rscript -e', false],
    ['git status', false],
    ['rm -rf', false],
    ['xargs', false],
    ['npm', false],
  ])('isIgnoredAllowPrefix(%j) is %s', (prefix, ignored) => {
    expect(isIgnoredAllowPrefix(prefix.split(' '))).toBe(ignored)
  })

  it('evaluates an empty line whole, as Codex does with a script without commands', () => {
    expect(evaluateCommandLine([allow('ls')], '')).toMatchObject({
      decision: undefined,
      plain: false,
      unmatched: [['/bin/bash', '-lc', '']],
    })
  })

  it('reports each matched rule once, in the order the segments matched them', () => {
    const ls = allow('ls')
    const pwd = allow('pwd')
    expect(evaluateCommandLine([pwd, ls], 'ls; pwd; ls -la')).toMatchObject({ decision: 'allow', matched: [ls, pwd] })
  })
})
