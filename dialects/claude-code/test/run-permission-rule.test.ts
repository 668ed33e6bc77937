import { describe, expect, it } from 'vitest'
import { matchesPermissionRule, parsePermissionRule, splitBashCommand } from '../src/run/index.js'

const cwd = '/work/proj/sub'
const options = { projectDir: '/work/proj', homeDir: '/home/u' }
const bash = (command: string) => ({ command, description: 'd' })
const file = (file_path: string) => ({ file_path })

describe('matchesPermissionRule', () => {
  it.each<[string, string, unknown, boolean]>([
    // A bare tool name matches every call of that tool.
    ['Bash', 'Bash', bash('anything at all'), true],
    ['Read', 'Read', file('/anywhere'), true],
    ['Bash', 'Read', file('x'), false],
    ['Bash(git *)', 'Read', file('git'), false],
    // Bash: exact, glob, word boundary, legacy prefix.
    ['Bash(npm run build)', 'Bash', bash('npm run build'), true],
    ['Bash(npm run build)', 'Bash', bash('npm run build --prod'), false],
    ['Bash(git *)', 'Bash', bash('git push origin main'), true],
    ['Bash(git *)', 'Bash', bash('git'), true],
    ['Bash(git *)', 'Bash', bash('gitk'), false],
    ['Bash(git *)', 'Bash', bash('echo git'), false],
    ['Bash(ls *)', 'Bash', bash('lsof -i'), false],
    ['Bash(git * main)', 'Bash', bash('git push origin main'), true],
    ['Bash(git * main)', 'Bash', bash('git push origin dev'), false],
    ['Bash(* --version)', 'Bash', bash('node --version'), true],
    ['Bash(npm run test:*)', 'Bash', bash('npm run test'), true],
    ['Bash(npm run test:*)', 'Bash', bash('npm run test -- --watch'), true],
    ['Bash(npm run test:*)', 'Bash', bash('npm run testing'), false],
    ['Bash(npm run test:*)', 'Bash', bash('npm run build'), false],
    ['Bash(echo \\(x\\))', 'Bash', bash('echo (x)'), true],
    // Bash: every subcommand is checked, leading assignments stripped.
    ['Bash(git *)', 'Bash', bash('npm test && git push'), true],
    ['Bash(git *)', 'Bash', bash('npm test; git push'), true],
    ['Bash(git *)', 'Bash', bash('cat patch | git apply'), true],
    ['Bash(git *)', 'Bash', bash('make 2>&1 || git stash'), true],
    ['Bash(git *)', 'Bash', bash('sleep 1 & git fetch'), true],
    ['Bash(git *)', 'Bash', bash('(cd sub && git status)'), true],
    ['Bash(git *)', 'Bash', bash('if git diff --quiet; then echo same; fi'), true],
    ['Bash(git *)', 'Bash', bash('FOO=bar git push'), true],
    ['Bash(git *)', 'Bash', bash('FOO="a b" BAR=1 git push'), true],
    ['Bash(git *)', 'Bash', bash("echo 'git push && x'"), false],
    ['Bash(git *)', 'Bash', bash('npm test && npm run lint'), false],
    // Bash: substitutions are looked into; a pattern naming more than the command matches any dynamic line.
    ['Bash(rm *)', 'Bash', bash('echo $(rm -rf /tmp/x)'), true],
    ['Bash(rm *)', 'Bash', bash('echo `rm -rf /tmp/x`'), true],
    ['Bash(rm *)', 'Bash', bash('echo "$(rm -rf /tmp/x)"'), true],
    ['Bash(git *)', 'Bash', bash('diff <(git show HEAD:a) a'), true],
    ['Bash(rm *)', 'Bash', bash('echo $(date)'), false],
    ['Bash(git push *)', 'Bash', bash('echo $(date)'), true],
    ['Bash(git push *)', 'Bash', bash('echo `date`'), true],
    ['Bash(git push *)', 'Bash', bash('echo $HOME'), true],
    ['Bash(git push *)', 'Bash', bash("echo '$HOME'"), false],
    ['Bash(git push *)', 'Bash', bash('echo hi'), false],
    // Read / Edit: gitignore-style paths with four anchors.
    ['Edit(src/**)', 'Edit', file('/work/proj/sub/src/a/b.ts'), true],
    ['Edit(src/**)', 'Edit', file('src/a.ts'), true],
    ['Edit(./src/**)', 'Edit', file('src/a.ts'), true],
    ['Edit(src/**)', 'Edit', file('/work/proj/src/a.ts'), false],
    ['Edit(src/*.ts)', 'Edit', file('src/a.ts'), true],
    ['Edit(src/*.ts)', 'Edit', file('src/a/b.ts'), false],
    ['Edit(src/**/*.ts)', 'Edit', file('src/a.ts'), true],
    ['Edit(src/**/*.ts)', 'Edit', file('src/a/b/c.ts'), true],
    ['Edit(/src/**)', 'Edit', file('/work/proj/src/a.ts'), true],
    ['Edit(/src/**)', 'Edit', file('/work/proj/sub/src/a.ts'), false],
    ['Edit(//tmp/scratch.txt)', 'Edit', file('/tmp/scratch.txt'), true],
    ['Edit(//tmp/*.txt)', 'Edit', file('/tmp/a/b.txt'), false],
    ['Read(~/.zshrc)', 'Read', file('/home/u/.zshrc'), true],
    ['Read(~/Documents/*.pdf)', 'Read', file('/home/u/Documents/a.pdf'), true],
    ['Read(*.env)', 'Read', file('/work/proj/sub/deep/dir/.prod.env'), true],
    ['Read(*.env)', 'Read', file('/work/proj/.env'), false],
    ['Read(.env)', 'Read', file('config/.env'), true],
    ['Read(secrets)', 'Read', file('secrets/key.pem'), true],
    ['Read(secrets/)', 'Read', file('secrets/key.pem'), true],
    ['Read(secrets/)', 'Read', file('secrets'), false],
    ['Read(key.pe?)', 'Read', file('key.pem'), true],
    ['Read(key.[!p]em)', 'Read', file('key.pem'), false],
    ['Edit(*.ts)', 'Write', file('a.ts'), true],
    ['Edit(*.ts)', 'MultiEdit', file('a.ts'), true],
    ['Edit(*.ts)', 'Write', file('a.js'), false],
    ['Edit(docs/**)', 'NotebookEdit', { notebook_path: 'docs/a.ipynb' }, true],
    ['Write(*.ts)', 'Edit', file('a.ts'), false],
    ['Read(src/**)', 'Edit', file('src/a.ts'), false],
    // MCP tools.
    ['mcp__memory', 'mcp__memory__create_entities', {}, true],
    ['mcp__memory', 'mcp__memoryx__create', {}, false],
    ['mcp__memory__*', 'mcp__memory__delete', {}, true],
    ['mcp__memory__create', 'mcp__memory__create', {}, true],
    ['mcp__memory__create', 'mcp__memory__delete', {}, false],
    ['mcp__plugin_my-plugin_db__query', 'mcp__plugin_my-plugin_db__query', {}, true],
    // WebFetch domains.
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com/page' }, true],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://evil.com/?example.com' }, false],
    ['WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://api.example.com/' }, true],
  ])('%s on %s %j: %s', (rule, toolName, toolInput, expected) => {
    const result = matchesPermissionRule(rule, toolName, toolInput, cwd, options)
    expect(result).toEqual({ matches: expected })
  })

  it.each<[string, string, unknown, string]>([
    ['Bash(git', 'Bash', bash('git push'), 'cannot be parsed'],
    ['', 'Bash', bash('git push'), 'cannot be parsed'],
    ['*', 'Read', file('a'), 'cannot be parsed'],
    ['Bash(git *)', 'Bash', bash('echo "unclosed'), 'could not be parsed'],
    ['Bash(git *)', 'Bash', bash('cat <<EOF\ngit push\nEOF'), 'could not be parsed'],
    ['Bash(git *)', 'Bash', {}, 'tool_input.command'],
    ['Edit(src/**)', 'Edit', {}, 'tool_input.file_path'],
    ['Task(Explore)', 'Task', { subagent_type: 'Explore' }, 'cannot evaluate'],
    ['WebFetch(https://example.com)', 'WebFetch', { url: 'https://example.com' }, 'cannot evaluate'],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'not a url' }, 'valid tool_input.url'],
  ])('fails open on %j for %s, with a warning', (rule, toolName, toolInput, reason) => {
    const result = matchesPermissionRule(rule, toolName, toolInput, cwd, options)
    expect(result.matches).toBe(true)
    expect(result.warning).toContain(reason)
    expect(result.warning).toMatch(/the hook runs anyway$/)
  })

  it('anchors relative patterns at cwd and `/` patterns at cwd when no project dir is given', () => {
    expect(matchesPermissionRule('Edit(/src/**)', 'Edit', file('/work/proj/sub/src/a.ts'), cwd)).toEqual({ matches: true })
  })
})

describe('parsePermissionRule', () => {
  it('splits the tool and the content', () => {
    expect(parsePermissionRule('Bash(git *)')).toEqual({ tool: 'Bash', content: 'git *' })
    expect(parsePermissionRule(' Read ')).toEqual({ tool: 'Read', content: undefined })
    expect(parsePermissionRule('Bash(echo (a))')).toEqual({ tool: 'Bash', content: 'echo (a)' })
    expect(parsePermissionRule('Bash(git')).toBeUndefined()
  })
})

describe('splitBashCommand', () => {
  it('lists the simple commands, those inside substitutions included', () => {
    expect(splitBashCommand('A=1 npm test && git push | tee log; echo "$(date) `whoami`"')).toEqual({
      commands: ['npm test', 'git push', 'tee log', 'date', 'whoami', 'echo "$(date) `whoami`"'],
      dynamic: true,
    })
    expect(splitBashCommand("echo 'a && b' \\\n  c # git push")).toEqual({ commands: ["echo 'a && b'   c"], dynamic: false })
    expect(splitBashCommand('{ git add .; git commit; } > out 2>&1')).toEqual({ commands: ['git add .', 'git commit'], dynamic: false })
  })

  it('is undefined for what it cannot parse', () => {
    expect(splitBashCommand("echo 'open")).toBeUndefined()
    expect(splitBashCommand('echo $(date')).toBeUndefined()
    expect(splitBashCommand('cat <<EOF\nx\nEOF')).toBeUndefined()
  })
})
