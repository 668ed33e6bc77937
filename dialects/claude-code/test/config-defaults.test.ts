import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultClaudeConfigDir, defaultManagedSettingsPath, loadClaudeCodeHooks, managedDropInPaths } from '../src/config/index.js'
import { tempRoot, write } from './fixtures/config/layout.js'

describe('default locations', () => {
  it('puts the managed settings file where Claude Code reads it on each platform', () => {
    expect(defaultManagedSettingsPath('linux')).toBe('/etc/claude-code/managed-settings.json')
    expect(defaultManagedSettingsPath('darwin')).toBe('/Library/Application Support/ClaudeCode/managed-settings.json')
    expect(defaultManagedSettingsPath('win32')).toBe('C:\\Program Files\\ClaudeCode\\managed-settings.json')
    expect(defaultManagedSettingsPath('freebsd')).toBe('/etc/claude-code/managed-settings.json')
  })

  it('reads the platform managed file when no managedSettingsPath is given', () => {
    const root = tempRoot()
    const loaded = loadClaudeCodeHooks({ projectDir: root, configDir: join(root, 'config'), env: {} })
    expect(loaded.sources[0]).toMatchObject({ source: 'managed', path: defaultManagedSettingsPath() })
  })

  it('takes the config dir from $CLAUDE_CONFIG_DIR, else $HOME/.claude, else the OS home', () => {
    expect(defaultClaudeConfigDir({ CLAUDE_CONFIG_DIR: '/cfg', HOME: '/home/u' })).toBe('/cfg')
    expect(defaultClaudeConfigDir({ CLAUDE_CONFIG_DIR: '', HOME: '/home/u' })).toBe('/home/u/.claude')
    expect(defaultClaudeConfigDir({})).toBe(join(homedir(), '.claude'))
  })

  it('uses process.env when no env is given', () => {
    const root = tempRoot()
    const saved = process.env.CLAUDE_CONFIG_DIR
    process.env.CLAUDE_CONFIG_DIR = join(root, 'from-process-env')
    try {
      const loaded = loadClaudeCodeHooks({ projectDir: root, managedSettingsPath: false })
      expect(loaded.sources.at(-1)).toEqual({ source: 'user', path: join(root, 'from-process-env', 'settings.json'), found: false })
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR
      else process.env.CLAUDE_CONFIG_DIR = saved
    }
  })

  it('lists managed-settings.d drop-ins by name, none when the directory is absent', () => {
    const root = tempRoot()
    const base = join(root, 'managed-settings.json')
    expect(managedDropInPaths(base, [])).toEqual([])
    mkdirSync(join(root, 'managed-settings.d'))
    write(join(root, 'managed-settings.d', 'b.json'), {})
    write(join(root, 'managed-settings.d', 'A.json'), {})
    write(join(root, 'managed-settings.d', 'a.json'), {})
    write(join(root, 'managed-settings.d', '.a.json'), {})
    write(join(root, 'managed-settings.d', 'a.json.bak'), {})
    expect(managedDropInPaths(base, []).map((path) => path.slice(root.length + 1))).toEqual([
      'managed-settings.d/A.json',
      'managed-settings.d/a.json',
      'managed-settings.d/b.json',
    ])
  })
})
