import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { matchCommandRules } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { CodexRulesError, type ParsedRules, parseRules } from '../src/config/guardrails/index.js'
import { put, tempRoot } from './fixtures/config/layout.js'

/**
 * The parser against the real Codex (`codex execpolicy check --rules FILE -- argv`, 0.169.0 from node_modules, HOME
 * and CODEX_HOME an empty temp dir, offline; about 0.2 s a run). For a file both accept, every rule parsed must be
 * one Codex matches with the same decision and justification, for the argv its pattern spells; for a file both
 * refuse, Codex must name the same problem at the same line and column. Then the parsed rules through the kernel's
 * `matchCommandRules` must decide argv as Codex does.
 */
const CODEX = fileURLToPath(new URL('../../../node_modules/@openai/codex/bin/codex.js', import.meta.url))

function codexCheck(files: string[], argv: readonly string[]) {
  return codexCheckWith(files, [], argv)
}

function codexCheckWith(files: string[], flags: string[], argv: readonly string[]) {
  const home = tempRoot()
  const args = [CODEX, 'execpolicy', 'check', ...files.flatMap((file) => ['--rules', file]), ...flags, '--', ...argv]
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home } })
  rmSync(home, { recursive: true, force: true })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

const ACCEPTED: Record<string, string> = {
  readme: `prefix_rule(
    pattern = ["cmd", ["alt1", "alt2"]], # list entries denote alternatives
    decision = "prompt",
    justification = "explain why this rule exists",
    match = [["cmd", "alt1"], "cmd alt2"],
    not_match = [["cmd", "oops"], "cmd alt3"],
)
`,
  forms: String.raw`GIT = ["git"]
prefix_rule(GIT + [["push", "fetch"]], "forbidden", justification = 'it\'s "remote"\t\x41\u00e9\d');prefix_rule(["npm", "test"])
prefix_rule(pattern = [r"C:\bin", """tri
ple"""], decision = "prompt", match = ["'C:\\bin' 'tri\nple'"])
host_executable(name = "git", paths = ["/usr/bin/git"])
network_rule(host = "example.com", protocol = "https", decision = "deny")
prefix_rule(pattern = [["hg", "jj"], "log"], match = ["/usr/bin/hg log"], not_match = ["/usr/bin/git log"])
`,
}

const REFUSED: Record<string, string> = {
  deny: 'prefix_rule(pattern=["git"], decision="deny")\n',
  unmatched:
    'prefix_rule(pattern=["git", ["a", "b"]], decision="prompt", justification="j\\"q", match=[["x", "a b", "it\'s", "#c", "~"]])\n',
  matched: `prefix_rule(pattern=["git"], not_match=[["git", "a b", "it's", "x=1", "", "$HOME", 'a"b']], justification="j\\"q")\n`,
  hostOnly: 'prefix_rule(pattern=["git", "push"], match=["/usr/bin/git push"])\nhost_executable(name="git", paths=["/opt/git"])\n',
  unclosed: '# c\nprefix_rule(\n  pattern=["git",\n  decision="allow")\n',
  repeated: 'prefix_rule(pattern=["git"], decision="allow", decision="prompt")\n',
  indented: '  prefix_rule(pattern=["a"])\n',
  unfinished: 'prefix_rule(pattern=["a"], justification="x)\n',
  lazyLexing: 'prefix_rule(pattern=["a], decision="allow")\n',
  positional: 'prefix_rule(decision="allow", ["git"])\n',
  danglingAssign: 'X =\nprefix_rule(pattern=["a"])\n',
  danglingPlus: 'prefix_rule(pattern=["a"]) +\n',
  noneDecision: 'prefix_rule(pattern=["git"], decision=None)\n',
  tuple: 'prefix_rule(pattern=("git",))\n',
  extraNamed: 'prefix_rule(pattern=["git"], foo="x")\n',
  emptyAlternatives: 'prefix_rule(["ok"])\nprefix_rule(pattern=["git", []])\n',
  badExample: 'prefix_rule(pattern=["git"], match=["git \\"open"])\n',
  hostPath: 'host_executable(name="git", paths=["~/bin/git"])\n',
  protocol: 'network_rule(host="example.com", protocol="ftp", decision="deny")\n',
}

const parsedOrError = (text: string, file: string): ParsedRules | CodexRulesError => {
  try {
    return parseRules({ text, file })
  } catch (err) {
    if (err instanceof CodexRulesError) return err
    throw err
  }
}

describe.skipIf(!existsSync(CODEX))('.rules parsing against the real Codex 0.169.0', () => {
  it('reads every rule of the files Codex accepts as Codex does (1 run per rule: 5)', () => {
    const root = tempRoot()
    for (const [name, text] of Object.entries(ACCEPTED)) {
      const file = put(root, `${name}.rules`, text)
      const parsed = parseRules({ text, file })
      for (const rule of parsed.rules) {
        const argv = rule.pattern.map((token) => (typeof token === 'string' ? token : token[0]!))
        const run = codexCheck([file], argv)
        expect(run.status, `${name}: ${run.stderr}`).toBe(0)
        const matched = (JSON.parse(run.stdout) as { matchedRules: { prefixRuleMatch: unknown }[] }).matchedRules
        expect(matched.map((match) => match.prefixRuleMatch)).toContainEqual({
          matchedPrefix: argv,
          decision: rule.decision,
          ...(rule.justification === undefined ? {} : { justification: rule.justification }),
        })
      }
    }
  })

  it('refuses what Codex refuses, with its words at its position (1 run per file: 19)', () => {
    const root = tempRoot()
    for (const [name, text] of Object.entries(REFUSED)) {
      const file = put(root, `${name}.rules`, text)
      const ours = parsedOrError(text, file)
      expect(ours, name).toBeInstanceOf(CodexRulesError)
      const error = ours as CodexRulesError
      const run = codexCheck([file], ['git'])
      expect(run.status, name).not.toBe(0)
      const problem = error.message.slice(`${file}:${error.line}:${error.column}: `.length)
      if (problem.startsWith('expected ')) expect(run.stderr, name).toContain(problem)
      else {
        expect(run.stderr, name).toContain(`--> ${file}:${error.line}:${error.column}\n`)
        if (!/^(syntax error|unexpected indentation|unfinished string)/.test(problem))
          expect(run.stderr, name).toContain(`error: ${problem}\n`)
      }
    }
  })

  it("decides as Codex through the kernel's matchCommandRules (1 run per command: 14)", () => {
    const root = tempRoot()
    const first = put(
      root,
      'a.rules',
      `prefix_rule(pattern=["git"], decision="allow")
prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="network")
prefix_rule(pattern=["git", "push", "--force"], decision="forbidden", justification="Use --force-with-lease.")
prefix_rule(pattern=[["npm", "pnpm"], "test"])
prefix_rule(pattern=["rm", "-rf"], decision="forbidden")
`,
    )
    const second = put(root, 'b.rules', 'prefix_rule(pattern=["npm"], decision="prompt")\n')
    const parsed = parseRules({ text: readFileSync(first, 'utf8'), file: first })
    const rules = [
      ...parsed.rules,
      ...parseRules({ text: readFileSync(second, 'utf8'), file: second, hostExecutables: parsed.hostExecutables }).rules,
    ]
    const commands: [string[], boolean][] = [
      [['git', 'status'], false],
      [['git'], false],
      [['git', 'push', 'origin'], false],
      [['git', 'push', '--force'], false],
      [['git', 'fetch'], false],
      [['GIT', 'push'], false],
      [['npm', 'test', '--watch'], false],
      [['pnpm', 'test'], false],
      [['npm', 'install'], false],
      [['rm', '-rf', '/'], false],
      [['ls', '-la'], false],
      [['/usr/bin/git', 'push'], false],
      [['/usr/bin/git', 'push'], true],
      [['/bin/rm', '-rf', 'x'], true],
    ]
    for (const [argv, resolveHostExecutables] of commands) {
      const run = codexCheckWith([first, second], resolveHostExecutables ? ['--resolve-host-executables'] : [], argv)
      expect(run.status, run.stderr).toBe(0)
      const codex = JSON.parse(run.stdout) as {
        decision?: string
        matchedRules: { prefixRuleMatch: { decision: string; justification?: string } }[]
      }
      const ours = matchCommandRules(rules, argv, { resolveHostExecutables })
      const label = `${argv.join(' ')}${resolveHostExecutables ? ' (resolving)' : ''}`
      expect(ours.decision, label).toBe(codex.decision)
      expect(
        ours.matched.map((rule) => ({ decision: rule.decision, justification: rule.justification })),
        label,
      ).toEqual(codex.matchedRules.map(({ prefixRuleMatch: match }) => ({ decision: match.decision, justification: match.justification })))
    }
  })
})
