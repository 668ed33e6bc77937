import { describe, expect, it } from 'vitest'
import { isKnownSafeCommand, isKnownSafeCommandLine } from '../../src/guardrails/command-safety/index.js'

/*
 * Cases from Codex's tests of `is_known_safe_command` (codex-rs/shell-command/src/command_safety/is_safe_command.rs,
 * the allowlist's last version), by test name. Codex 0.169.0 itself no longer has the allowlist.
 */
describe('isKnownSafeCommand', () => {
  it.each<[string, string[]]>([
    ['known_safe_examples', ['ls']],
    ['known_safe_examples', ['base64']],
    ['known_safe_examples', ['sed', '-n', '1,5p', 'file.txt']],
    ['known_safe_examples', ['nl', '-nrz', 'Cargo.toml']],
    ['known_safe_examples', ['find', '.', '-name', 'file.txt']],
    ['known_safe_examples (linux)', ['numfmt', '1000']],
    ['known_safe_examples (linux)', ['tac', 'Cargo.toml']],
    ['path_qualified_safe_command_names_require_approval', ['cat', 'Cargo.toml']],
    ['zsh_lc_safe_command_sequence', ['zsh', '-lc', 'ls']],
    ['ripgrep_rules', ['rg', 'Cargo.toml', '-n']],
    ['bash_lc_safe_examples', ['bash', '-lc', 'ls']],
    ['bash_lc_safe_examples', ['bash', '-lc', 'ls -1']],
    ['bash_lc_safe_examples', ['bash', '-lc', 'grep -R "Cargo.toml" -n']],
    ['bash_lc_safe_examples', ['bash', '-lc', 'sed -n 1,5p file.txt']],
    ['bash_lc_safe_examples', ['bash', '-lc', "sed -n '1,5p' file.txt"]],
    ['bash_lc_safe_examples', ['bash', '-lc', 'find . -name file.txt']],
    ['bash_lc_safe_examples_with_operators', ['bash', '-lc', 'grep -R "Cargo.toml" -n || true']],
    ['bash_lc_safe_examples_with_operators', ['bash', '-lc', 'ls && pwd']],
    ['bash_lc_safe_examples_with_operators', ['bash', '-lc', "echo 'hi' ; ls"]],
    ['bash_lc_safe_examples_with_operators', ['bash', '-lc', 'ls | wc -l']],
    ['(sh and -c too)', ['/bin/sh', '-c', 'head -n 5 README.md']],
    ['(sed -n with one more argument)', ['sed', '-n', '10p', 'a.txt']],
  ])('%s: %j is safe', (_test, argv) => {
    expect(isKnownSafeCommand(argv)).toBe(true)
  })

  it.each<[string, string[]]>([
    ['unknown_or_partial', ['foo']],
    ['unknown_or_partial', ['git', 'fetch']],
    ['unknown_or_partial', ['sed', '-n', 'xp', 'file.txt']],
    ['unknown_or_partial', ['find', '.', '-name', 'file.txt', '-exec', 'rm', '{}', ';']],
    ['unknown_or_partial', ['find', '.', '-name', '*.py', '-execdir', 'python3', '{}', ';']],
    ['unknown_or_partial', ['find', '.', '-name', 'file.txt', '-ok', 'rm', '{}', ';']],
    ['unknown_or_partial', ['find', '.', '-name', '*.py', '-okdir', 'python3', '{}', ';']],
    ['unknown_or_partial', ['find', '.', '-delete', '-name', 'file.txt']],
    ['unknown_or_partial', ['find', '.', '-fls', '/etc/passwd']],
    ['unknown_or_partial', ['find', '.', '-fprint', '/etc/passwd']],
    ['unknown_or_partial', ['find', '.', '-fprint0', '/etc/passwd']],
    ['unknown_or_partial', ['find', '.', '-fprintf', '/root/suid.txt', '%#m %u %p\n']],
    ['base64_output_options_are_unsafe', ['base64', '-o', 'out.bin']],
    ['base64_output_options_are_unsafe', ['base64', '--output', 'out.bin']],
    ['base64_output_options_are_unsafe', ['base64', '--output=out.bin']],
    ['base64_output_options_are_unsafe', ['base64', '-ob64.txt']],
    ['ripgrep_rules', ['rg', '--search-zip', 'files']],
    ['ripgrep_rules', ['rg', '-z', 'files']],
    ['ripgrep_rules', ['rg', '--pre', 'pwned', 'files']],
    ['ripgrep_rules', ['rg', '--pre=pwned', 'files']],
    ['ripgrep_rules', ['rg', '--hostname-bin', 'pwned', 'files']],
    ['ripgrep_rules', ['rg', '--hostname-bin=pwned', 'files']],
    ['path_qualified_safe_command_names_require_approval', ['./cat', 'Cargo.toml']],
    ['path_qualified_safe_command_names_require_approval', ['../cat', 'Cargo.toml']],
    ['path_qualified_safe_command_names_require_approval', ['/tmp/workspace/cat', 'Cargo.toml']],
    ['path_qualified_safe_command_names_require_approval', ['bash', '-lc', './cat Cargo.toml']],
    ['git_commands_require_approval', ['git', 'status']],
    ['git_commands_require_approval', ['git', 'log', '-1']],
    ['git_commands_require_approval', ['git', 'diff']],
    ['git_commands_require_approval', ['git', 'show', 'HEAD']],
    ['git_commands_require_approval', ['git', 'branch']],
    ['git_commands_require_approval', ['git', 'branch', '--show-current']],
    ['git_commands_require_approval', ['bash', '-lc', 'git status']],
    ['git_commands_require_approval', ['bash', '-lc', 'git log -1']],
    ['git_branch_mutating_flags_are_not_safe', ['git', 'branch', '-d', 'feature']],
    ['git_branch_mutating_flags_are_not_safe', ['git', 'branch', 'new-branch']],
    ['git_first_positional_is_the_subcommand', ['git', 'checkout', 'status']],
    ['git_output_flags_are_not_safe', ['git', 'log', '--output=/tmp/git-log-out-test', '-n', '1']],
    ['git_global_pagination_flags_are_not_safe', ['git', '-p', 'log', '-1']],
    ['git_patch_display_subcommands_require_approval', ['git', 'log', '-p', '-1']],
    ['git_global_override_flags_are_not_safe', ['git', '-c', 'core.pager=cat', 'log', '-n', '1']],
    ['git_global_override_flags_are_not_safe', ['git', '-c', 'x=y', 'status']],
    ['git_global_override_flags_are_not_safe', ['git', '--git-dir=.evil-git', 'diff', 'HEAD~1..HEAD']],
    ['cargo_check_is_not_safe', ['cargo', 'check']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', 'git', 'status']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', "'git status'"]],
    ['bash_lc_unsafe_examples', ['bash', '-lc', 'find . -name file.txt -delete']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', 'ls && rm -rf /']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', '(ls)']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', 'ls || (pwd && echo hi)']],
    ['bash_lc_unsafe_examples', ['bash', '-lc', 'ls > out.txt']],
    ['(sed writes)', ['sed', '-i', 's/a/b/', 'file']],
    ['(sed -n with two more arguments)', ['sed', '-n', '1p', 'a', 'b']],
    ['(a shell by another name)', ['/tmp/bash', '-lc', 'ls']],
    ['(a nested shell is one segment, not split again)', ['bash', '-lc', "bash -lc 'ls'"]],
    ['(an empty script)', ['bash', '-lc', '']],
    ['(nothing)', []],
  ])('%s: %j is not safe', (_test, argv) => {
    expect(isKnownSafeCommand(argv)).toBe(false)
  })
})

describe('isKnownSafeCommandLine', () => {
  it.each([
    'ls',
    'ls -la && pwd; echo "hi there" | wc -l',
    'grep -n foo src/a.ts || true',
    "sed -n '1,20p' README.md",
    'cat package.json | head -n 5',
    // A segment that is itself a shell wrapper is judged as Codex judged a segment: one level of `bash -lc`.
    "bash -lc 'ls && pwd'",
  ])('%j is safe', (line) => {
    expect(isKnownSafeCommandLine(line)).toBe(true)
  })

  it.each([
    'find . -delete',
    'git -c x=y status',
    'git status',
    'sed -i s/a/b/ file',
    'rg --pre x pattern',
    'ls > out',
    'echo $(rm -rf /)',
    "bash -lc 'ls && rm -rf x'",
    'ls && rm -rf x',
    'ls # just a comment',
    'cat <<EOF\nhi\nEOF',
    '/bin/ls',
    'FOO=1 ls',
    'ls &',
    '',
  ])('%j is not safe', (line) => {
    expect(isKnownSafeCommandLine(line)).toBe(false)
  })
})
