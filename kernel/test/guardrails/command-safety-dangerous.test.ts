// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is shell text, never a template.
import { describe, expect, it } from 'vitest'
import {
  dangerousCommandLineMatch,
  dangerousCommandMatch,
  isDangerousCommand,
  isDangerousCommandLine,
} from '../../src/guardrails/command-safety/index.js'

describe('dangerousCommandMatch', () => {
  // Codex's tests (codex-rs/shell-command/src/command_safety/is_dangerous_command.rs), by test name.
  it.each<[string, string[]]>([
    ['rm_rf_is_dangerous', ['rm', '-rf', '/']],
    ['rm_f_is_dangerous', ['rm', '-f', '/']],
    ['forced_rm_variants_are_dangerous', ['/bin/rm', '-fr', '/tmp/example']],
    ['forced_rm_variants_are_dangerous', ['rm', '-r', '-f', '/tmp/example']],
    ['forced_rm_variants_are_dangerous', ['rm', '--force', '/tmp/example']],
    ['forced_rm_variants_are_dangerous', ['rm', '/tmp/example', '-f']],
    ['forced_rm_variants_are_dangerous', ['sudo', 'rm', '-rf', '/tmp/example']],
    ['forced_rm_variants_are_dangerous', ['env', 'TARGET=/tmp/example', 'rm', '-rf', '/tmp/example']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', 'printf x | rm -rf /tmp/example']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', 'if test -d /tmp/example; then rm --force /tmp/example; fi']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', 'rm -rf "$TARGET" >/dev/null']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', 'for target in /tmp/a /tmp/b; do rm -r -f "$target"; done']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', 'echo "$(rm -rf /tmp/example)"']],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', "bash -c 'rm -rf /tmp/example'"]],
    ['forced_rm_in_complex_shell_syntax_is_dangerous', ['bash', '-lc', "trap 'rm -rf /tmp/example' EXIT"]],
    [
      'forced_rm_in_complex_shell_syntax_is_dangerous',
      [
        'bash',
        '-lc',
        `for a in '-C5a25KeRr' '--' '--json' '--bogus'; do HOME=$(mktemp -d) MDE_URL=http://127.0.0.1:1 MDE_TOKEN=x node cli/mde.cjs ls "$a" >/tmp/mde-review-out 2>/tmp/mde-review-err; code=$?; printf '%s\\t%s\\t%s\\n' "$a" "$code" "$(tr '\\n' ' ' </tmp/mde-review-err)"; rm -rf "$HOME"; done`,
      ],
    ],
  ])('%s: %j is a forced rm', (_test, argv) => {
    expect(dangerousCommandMatch(argv)).toBe('forcedRm')
  })

  it.each<[string, string[]]>([
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['rm', '-r', '/tmp/example']],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['rm', '--', '-f']],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['bash', '-lc', "echo 'rm -rf /tmp/example'"]],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['bash', '-lc', 'cmd=rm; $cmd -rf /tmp/example']],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['bash', '-lc', 'if then rm -rf /tmp/example']],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['env', 'TARGET=/tmp/example', 'rm', '-r', '/tmp/example']],
    ['non_forced_or_non_literal_rm_is_not_dangerous', ['bash', '-lc', "trap 'echo rm -rf /tmp/example' EXIT"]],
    ['(git is not on the list in 0.169.0)', ['git', 'reset', '--hard']],
    ['(git is not on the list in 0.169.0)', ['git', 'rm', 'file']],
    ['(sudo options are not skipped)', ['sudo', '-u', 'root', 'rm', '-f', 'x']],
    ['(a shell by another name)', ['/tmp/bash', '-lc', 'rm -rf x']],
    ['(nothing)', []],
  ])('%s: %j is not dangerous', (_test, argv) => {
    expect(isDangerousCommand(argv)).toBe(false)
  })

  it('deeply_nested_command_wrappers_fail_closed: past 8 wrappers any command is dangerous', () => {
    const wrapped = (depth: number, command: string[]) => [...Array(depth).fill('env'), ...command]
    expect(dangerousCommandMatch(wrapped(8, ['rm', '-rf', '/tmp/example']))).toBe('forcedRm')
    expect(dangerousCommandMatch(wrapped(9, ['rm', '-rf', '/tmp/example']))).toBe('other')
    expect(dangerousCommandMatch(wrapped(9, ['ls']))).toBe('other')
    expect(dangerousCommandMatch(wrapped(8, ['ls']))).toBeUndefined()
  })
})

describe('isDangerousCommandLine', () => {
  it('checks every literal command of the line, with the match kind', () => {
    expect(dangerousCommandLineMatch('ls && rm -rf x')).toBe('forcedRm')
    expect(dangerousCommandLineMatch("bash -lc 'ls && rm -rf x'")).toBe('forcedRm')
    expect(dangerousCommandLineMatch('echo $(rm -rf /)')).toBe('forcedRm')
    expect(dangerousCommandLineMatch('ls -la')).toBeUndefined()
  })

  it('sees a word joined across a backslash-newline as bash runs it (Codex 0.169.0 does not)', () => {
    expect(isDangerousCommandLine('r\\\nm -rf x')).toBe(true)
  })

  /*
   * Observed with codex-cli 0.169.0: `codex app-server`, a thread with `approvalPolicy: "on-request"` and sandbox
   * `danger-full-access` (Codex then asks only about a dangerous command), a fake model calling `exec_command` with
   * each line; `true` where Codex sent an approval request.
   */
  it.each<[string, boolean]>([
    ['rm -f nx1', true],
    ['rm -r nx2', false],
    ['git reset --hard', false],
    ['git rm nx', false],
    ['git push --force', false],
    ['echo $(rm -rf nx3)', true],
    ['if true; then rm -f nx4; fi', true],
    ['ls && rm -rf nx5', true],
    ['/bin/rm -f nx6', true],
    ['sudo rm -rf nx7', true],
    ['env FOO=1 rm -rf nx8', true],
    ['chmod -R 644 nx9', false],
    ['dd if=/dev/zero of=nx10 count=0', false],
    ['rm -- -f', false],
    ['rm nx11 -f', true],
    ['rm --force nx12', true],
    ['rm -fr nx13', true],
    ["echo 'rm -rf x'", false],
    ["bash -lc 'rm -rf nx14'", true],
    ['git -C . reset --hard', false],
    ['rm -rf "$NX"', true],
    ['cmd=rm; $cmd -rf nxa', false],
    ['FOO=1 rm -rf nx15', true],
    ['rm -rf nx16 > /dev/null', true],
    ['git clean -fdx', false],
    ['rm -Rf nx17', true],
    ['sudo -u root rm -f nx18', false],
    ['rm -f', true],
    ['./rm -f nx19', true],
    ['rm -rf nx20 &', true],
    ['(rm -rf nx21)', true],
    ['if test -d nx; then rm --force nx; fi', true],
    ['rm -rf "$NXQ" >/dev/null', true],
    ['for t in nxa nxb; do rm -r -f "$t"; done', true],
    ['echo "$(rm -rf nxc)"', true],
    ["bash -c 'rm -rf nxd'", true],
    ["trap 'rm -rf nxe' EXIT", true],
    [
      "for a in '-C5a25KeRr' '--' '--json' '--bogus'; do HOME=$(mktemp -d) MDE_URL=http://127.0.0.1:1 MDE_TOKEN=x node cli/mde.cjs ls \"$a\" >/tmp/mde-review-out 2>/tmp/mde-review-err; code=$?; printf '%s\\t%s\\t%s\\n' \"$a\" \"$code\" \"$(tr '\\n' ' ' </tmp/mde-review-err)\"; rm -rf \"$HOME\"; done",
      true,
    ],
    ["echo 'rm -rf nx'", false],
    ['cmd=rm; $cmd -rf nxf', false],
    ['if then rm -rf nxg', false],
    ['env TARGET=x rm -r nxh', false],
    ["trap 'echo rm -rf nxi' EXIT", false],
    ['env env env env env env env env rm -rf nxj', true],
    ['env env env env env env env env env rm -r nxk', true],
    ['cat <<EOF\n$(rm -rf nxl)\nEOF', true],
    ["cat <<'EOF'\n$(rm -rf nxm)\nEOF", false],
    ['f() { rm -rf nxn; }', true],
    ['case x in x) rm -rf nxo;; esac', true],
    ['while false; do rm -rf nxp; done', true],
    ['x=$(rm -rf nxq)', true],
    ['export X=$(rm -rf nxr)', true],
    ['[[ -n $(rm -rf nxs) ]]', true],
    ['(( $(rm -rf nxt 2>/dev/null; echo 1) ))', true],
    ['echo <(rm -rf nxu)', true],
    ['"rm" -rf nxv', true],
    ['echo ${X:-$(rm -rf nxx)}', true],
    ['rm -rf nxy # comment', true],
    ['echo `rm -rf nxz`', true],
    ['{ rm -rf nx30; }', true],
    ['! rm -rf nx31', true],
    ['rm -rf nx32 | cat', true],
    ['time rm -rf nx33', false],
    ['nohup rm -f nx34', false],
    ['command rm -f nx35', false],
    ['sudo env rm -f nx36', true],
    ['echo "$(echo "$(rm -f nx37)")"', true],
    ['a=1 b=2 rm -f nx38', true],
    ['rm -f nx39 2>&1 >/dev/null', true],
    ['cat <<EOF | rm -f nx40\nhi\nEOF', true],
    ["echo $'x' && rm -f nx41", true],
    ['for ((i=0;i<1;i++)); do rm -f nx42; done', true],
    ['until true; do rm -f nx44; done', true],
    ['function g { rm -f nx45; }', true],
    ['[ -f x ] && rm -f nx46', true],
    ['echo $((1+$(rm -f nx47; echo 1)))', true],
    ['x=(a $(rm -f nx48))', true],
    ['case $(rm -f nx49) in *) ;; esac', true],
    ['rm -f nx50 <<< hi', true],
    ['echo "unterminated; rm -f nx51', false],
    ['rm -f nx52 )', false],
    ['ls ;; rm -f nx53', true],
    ['ls & rm -f nx54', true],
    ['ls |& rm -f nx55', true],
    ['echo a\\ b; rm -f nx56', true],
    ['echo ~; rm -f nx57', true],
    ['if true; then :; fi; rm -f nx58', true],
    ['case x in (x) rm -f nx59;; esac', true],
    ['echo @(a|b); rm -f nx60', false],
    ['rm -f nx61\\', false],
    ['rm -f nx62 <<EOF\nhi', false],
    ['printf x | rm -rf nx63', true],
    ['coproc rm -f nx64', false],
    ['exec rm -f nx65', false],
    ['xargs rm -f < /dev/null', false],
    ['find . -name nx67 -delete', false],
    ['rm -f -- nx68', true],
    ['rm -- -f nx69', false],
    ['\\rm -f nx70', false],
    ['rm -f nx71 &', true],
    ['echo $(( 1 + 2 )) ; rm -f nx72', true],
    ['echo ${#X} ${X%%a} ${X/a/b}; rm -f nx73', true],
    ['declare -a arr=(1 2); rm -f nx74', true],
    ["echo 'a' \"b\" $'c\\'d' ; rm -f nx75", true],
    ['[[ a =~ ^(a|b)$ ]] && rm -f nx76', true],
    ['echo {a,b}; rm -f nx77', true],
    ['echo a=(b); rm -f nx78', false],
    ['local x; rm -f nx79', true],
    ['cat <<-EOF\n\thi\n\tEOF\nrm -f nx80', true],
    ['echo "a" > >(cat); rm -f nx81', true],
    ['if true; then rm -f nx82; elif false; then :; else :; fi', true],
    ['echo $(case x in x) echo y;; esac); rm -f nx83', true],
    ['{ echo; } > /dev/null; rm -f nx84', true],
    ['rm -f nx85 ;', true],
    ['rm -f nx86;;', true],
    ['echo \\#; rm -f nx87', true],
    ['echo x#y; rm -f nx88', true],
    ['echo $[1+2]; rm -f nx89', true],
    ['a[1]=x; rm -f nx90', true],
    ['echo ${a[1]}; rm -f nx91', true],
    ['cat < <(echo) ; rm -f nx92', true],
  ])('%j: %s as for Codex 0.169.0', (line, dangerous) => {
    expect(isDangerousCommandLine(line)).toBe(dangerous)
  })
})
