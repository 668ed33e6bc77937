import { describe, expect, it } from 'vitest'
import { CodexRulesError, parseRules } from '../src/config/guardrails/index.js'

const FILE = '/rules/default.rules'
const rulesOf = (text: string) => parseRules({ text, file: FILE }).rules

function refusal(text: string, hostExecutables?: Map<string, string[]>): CodexRulesError {
  try {
    parseRules({ text, file: FILE, hostExecutables })
  } catch (err) {
    expect(err).toBeInstanceOf(CodexRulesError)
    expect((err as CodexRulesError).source).toBe(FILE)
    return err as CodexRulesError
  }
  throw new Error('expected a CodexRulesError')
}

describe('parseRules: what Codex accepts', () => {
  it("reads the README's rule: alternatives, decision, justification, examples, comments, trailing commas", () => {
    const text = `# exec policy
prefix_rule(
    pattern = ["cmd", ["alt1", "alt2"]], # ordered tokens; list entries denote alternatives
    decision = "prompt",                 # allow | prompt | forbidden; defaults to allow
    justification = "explain why this rule exists",
    match = [["cmd", "alt1"], "cmd alt2"],
    not_match = [["cmd", "oops"], "cmd alt3"],
)
`
    expect(rulesOf(text)).toEqual([
      { pattern: ['cmd', ['alt1', 'alt2']], decision: 'prompt', justification: 'explain why this rule exists', source: FILE },
    ])
  })

  it('defaults decision to allow; takes positional arguments in Codex order; several statements per line with ;', () => {
    // Observed with `codex execpolicy check` 0.169.0: prefix_rule(["git"], "prompt") is a prompt rule.
    expect(rulesOf('prefix_rule(["git"], "prompt");prefix_rule(pattern=["ls"]);')).toEqual([
      { pattern: ['git'], decision: 'prompt', source: FILE },
      { pattern: ['ls'], decision: 'allow', source: FILE },
    ])
  })

  it('keeps alternatives in the first position and makes a one-word alternative a plain word', () => {
    expect(rulesOf('prefix_rule(pattern=[["git", "hg"], ["push"]], match=["hg push"], not_match=["git pull"])')).toEqual([
      { pattern: [['git', 'hg'], 'push'], decision: 'allow', source: FILE },
    ])
  })

  it("reads Starlark's string forms: quotes, triple quotes, raw, escapes, unknown escapes kept", () => {
    // Observed: "a\d" is a, \, d; "\x41\u00e9\101" is "AéA"; '\400' is U+0100; "ab\<newline>cd" is "abcd".
    const text = String.raw`prefix_rule(pattern=['g\x69t', "a\"b", r"a\d", "a\d", "ab\
cd"], justification="""x\x41\u00e9\101\n\t'\400\U0001F600
y""")`
    expect(rulesOf(text)).toEqual([
      { pattern: ['git', 'a"b', 'a\\d', 'a\\d', 'abcd'], decision: 'allow', justification: "xAéA\n\t'Ā😀\ny", source: FILE },
    ])
  })

  it('evaluates names bound at top level and + on strings and lists, as Starlark does', () => {
    const text = 'GIT = ["git"]\nWRITE = ["push", "commit"]\nprefix_rule(pattern=GIT + [WRITE], decision="for" + "bidden")\n'
    expect(rulesOf(text)).toEqual([{ pattern: ['git', ['push', 'commit']], decision: 'forbidden', source: FILE }])
  })

  it('checks host_executable and network_rule calls, keeping only prefix rules', () => {
    const text = `host_executable(name = "git", paths = ["/usr/bin/git", "/usr/bin/../bin/git"])
network_rule(host = "example.com", protocol = "https", decision = "deny", justification = "no")
prefix_rule(pattern = ["git", "push"], decision = "forbidden")
`
    const parsed = parseRules({ text, file: FILE })
    expect(parsed.rules).toEqual([{ pattern: ['git', 'push'], decision: 'forbidden', source: FILE }])
    expect(parsed.hostExecutables).toEqual(new Map([['git', ['/usr/bin/git']]]))
  })

  it('lets an absolute program in a match example fall back to its basename rule, as Codex checks examples', () => {
    expect(rulesOf('prefix_rule(pattern=["git", "push"], match=["/usr/bin/git push"])')).toHaveLength(1)
    expect(
      rulesOf('host_executable(name="git", paths=["/usr/bin/git"])\nprefix_rule(pattern=["git"], match=["/usr/bin/git push"])'),
    ).toHaveLength(1)
  })
})

describe('parseRules: what Codex refuses, with its words and the position', () => {
  it('decision "deny"', () => {
    // Observed: `error: invalid decision: deny --> t.rules:1:1` (the call's start).
    expect(refusal('prefix_rule(pattern=["git"], decision="deny")').message).toBe(`${FILE}:1:1: invalid decision: deny`)
    const second = refusal('prefix_rule(pattern=["ls"])\n\n  # c\nprefix_rule(\n  pattern=["git"],\n  decision="deny",\n)')
    expect([second.line, second.column]).toEqual([4, 1])
  })

  it('a match example no rule matches, with Codex 0.169.0 text', () => {
    // Observed (`codex execpolicy check`, exit 1), the rules shown as Rust prints them.
    expect(refusal('prefix_rule(pattern=["git", "push"], match=["git status", ["git","push","x"]])').message).toBe(
      `${FILE}:1:1: expected every example to match at least one rule. rules: ["PrefixRule { pattern: PrefixPattern { canonical_matching: false, first: \\"git\\", rest: [Single(\\"push\\")] }, decision: Allow, justification: None }"]; unmatched examples: ["git status"]`,
    )
    expect(
      refusal(`prefix_rule(pattern=["git", ["a","b"]], decision="prompt", justification="j\\"q", match=[["x", "a b", "it's", "#c", "~"]])`)
        .message,
    ).toBe(
      `${FILE}:1:1: expected every example to match at least one rule. rules: ["PrefixRule { pattern: PrefixPattern { canonical_matching: false, first: \\"git\\", rest: [Alts([\\"a\\", \\"b\\"])] }, decision: Prompt, justification: Some(\\"j\\\\\\"q\\") }"]; unmatched examples: ["x 'a b' \\"it's\\" '#c' '~'"]`,
    )
  })

  it('a not_match example a rule matches, with Codex 0.169.0 text', () => {
    expect(refusal('prefix_rule(pattern=["git", "push"], not_match=["git push --force"])').message).toBe(
      `${FILE}:1:1: expected example to not match rule \`PrefixRuleMatch { matched_prefix: ["git", "push"], decision: Allow, resolved_program: None, justification: None }\`: git push --force`,
    )
    expect(
      refusal(`prefix_rule(pattern=["git"], not_match=[["git", "a b", "it's", "x=1", "", "$HOME", 'a"b']], justification="j\\"q")`).message,
    ).toBe(
      `${FILE}:1:1: expected example to not match rule \`PrefixRuleMatch { matched_prefix: ["git"], decision: Allow, resolved_program: None, justification: Some("j\\"q") }\`: git 'a b' "it's" 'x=1' '' '$HOME' 'a"b'`,
    )
  })

  it('an example only host_executable paths may match, wherever in the file (or an earlier file) it is declared', () => {
    const later = 'prefix_rule(pattern=["git", "push"], match=["/usr/bin/git push"])\nhost_executable(name="git", paths=["/opt/git"])'
    expect(refusal(later).message).toMatch(/unmatched examples: \["\/usr\/bin\/git push"\]$/)
    const earlier = new Map([['git', ['/opt/git']]])
    expect(refusal('prefix_rule(pattern=["git"], match=["/usr/bin/git push"])', earlier).message).toMatch(/unmatched examples/)
    expect(refusal('prefix_rule(pattern=["git"], not_match=["/usr/bin/git"])').message).toContain(
      'resolved_program: Some(AbsolutePathBuf("/usr/bin/git"))',
    )
  })

  it('syntax errors at the offending token, before anything runs', () => {
    // Observed: "Parse error: unexpected symbol '=', expected symbol ']' --> t.rules:4:11".
    const unclosed = refusal('# c\nprefix_rule(\n  pattern=["git",\n  decision="allow")')
    expect(unclosed.message).toBe(`${FILE}:4:11: syntax error: unexpected symbol '=', expected ',' or ']'`)
    // Observed: "repeated named argument --> t.rules:1:48"; "unexpected identifier 'prefix_rule', expected new line --> 2:28".
    expect(refusal('prefix_rule(pattern=["git"], decision="allow", decision="prompt")').message).toBe(
      `${FILE}:1:48: syntax error: unexpected identifier 'decision', repeated named argument`,
    )
    expect(refusal('prefix_rule(pattern=["a"])\nprefix_rule(pattern=["b"]) prefix_rule(pattern=["c"])').message).toBe(
      `${FILE}:2:28: syntax error: unexpected identifier 'prefix_rule', expected a new line`,
    )
    // Observed: "unexpected new indentation block --> 1:1".
    expect(refusal('  prefix_rule(pattern=["a"])').message).toBe(`${FILE}:1:1: unexpected indentation (statements start at column 1)`)
    // Observed: "unfinished string literal --> 1:42"; and, lexing lazily as Starlark does, the parse error that comes
    // first wins over a string left open later: "unexpected identifier 'allow', expected symbol ']' --> 1:37".
    expect(refusal('prefix_rule(pattern=["a"], justification="x)\n').message).toBe(`${FILE}:1:42: unfinished string literal`)
    expect(refusal('prefix_rule(pattern=["a], decision="allow")\n').message).toBe(
      `${FILE}:1:37: syntax error: unexpected identifier 'allow', expected ',' or ']'`,
    )
    expect(refusal('prefix_rule(pattern=["a"], decision="deny")\nprefix_rule(pattern=').message).toBe(
      `${FILE}:2:21: syntax error: unexpected new line, expected a value`,
    )
    expect(refusal('def f():\n  pass').message).toBe(
      `${FILE}:1:1: \`def\` is not supported in .rules files (the harness reads literal prefix_rule(...) calls)`,
    )
    expect(refusal('prefix_rule(decision="allow", ["git"])').message).toBe(
      `${FILE}:1:31: syntax error: unexpected symbol '[', positional argument after a named argument`,
    )
  })

  it("argument errors with Starlark's words, at the call", () => {
    // Each observed with `codex execpolicy check` 0.169.0.
    const cases: [string, string][] = [
      [
        'prefix_rule(pattern=["git"], decision=None)',
        "Type of parameter `decision` doesn't match, expected `str`, actual `NoneType (repr: None)`",
      ],
      ['prefix_rule(pattern=("git",))', 'Type of parameter `pattern` doesn\'t match, expected `list`, actual `tuple (repr: ("git",))`'],
      ['prefix_rule(pattern=["git"], foo="x")', 'Found `foo` extra named parameter(s) for call to prefix_rule'],
      ['prefix_rule(decision="allow")', 'Missing parameter `pattern` for call to `prefix_rule`'],
      ['prefix_rule(["git"], pattern=["x"])', 'Argument `pattern` occurs more than once'],
      ['foo()', 'Variable `foo` not found'],
      ['prefix_rule(pattern=[])', 'invalid pattern element: pattern cannot be empty'],
      ['prefix_rule(pattern=["git", 1])', 'invalid pattern element: pattern element must be a string or list of strings (got int)'],
      ['prefix_rule(pattern=[b"a"])', 'invalid pattern element: pattern element must be a string or list of strings (got bytes)'],
      ['prefix_rule(pattern=["git", [1]])', 'invalid pattern element: pattern alternative must be a string (got int)'],
      ['prefix_rule(pattern=["git", []])', 'invalid pattern element: pattern alternatives cannot be empty'],
      ['prefix_rule(pattern=["git"], justification="  ")', 'invalid rule: justification cannot be empty'],
      ['prefix_rule(pattern=["git"], match=["git \\"unterminated"])', 'invalid example: example string has invalid shell syntax'],
      ['prefix_rule(pattern=["git"], match=[""])', 'invalid example: example cannot be an empty string'],
      ['prefix_rule(pattern=["git"], match=[1])', 'invalid example: example must be a string or list of strings (got int)'],
      ['prefix_rule(pattern=["git"], match=[[]])', 'invalid example: example cannot be an empty list'],
      ['host_executable(name="git", paths=["bin/git"])', 'invalid rule: host_executable paths must be absolute (got bin/git)'],
      ['host_executable(name="git", paths=["~/bin/git"])', 'invalid rule: host_executable paths must be absolute (got ~/bin/git)'],
      [
        'host_executable(name="git", paths=["/usr/bin/gitx"])',
        'invalid rule: host_executable path `/usr/bin/gitx` must have basename `git`',
      ],
      ['host_executable(name="a/git", paths=[])', 'invalid rule: host_executable name must be a bare executable name (got a/git)'],
      ['host_executable(name="git", paths=["/usr/bin/git"], foo=1)', 'Found `foo` extra named parameter(s) for call to host_executable'],
      [
        'network_rule(host="example.com", protocol="ftp", decision="deny")',
        'invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got ftp)',
      ],
      ['network_rule(host="example.com", protocol="https", decision="maybe")', 'invalid decision: maybe'],
    ]
    for (const [text, message] of cases) expect(refusal(`\n  ${text.replace(/^/, '')}`.trimStart()).message).toBe(`${FILE}:1:1: ${message}`)
    expect(refusal('prefix_rule(pattern=["ok"])\nX = 1\nprefix_rule(pattern=X + ["a"])').message).toBe(
      `${FILE}:3:23: Operation \`+\` not supported for types \`int\` and \`list\``,
    )
  })
})
