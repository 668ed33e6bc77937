import { describe, expect, it } from 'vitest'
import {
  CORE_ENV_VARS,
  checkShellEnvironmentPolicy,
  DEFAULT_ENV_EXCLUDES,
  envNamePattern,
  type ShellEnvironmentPolicy,
  shellEnvironment,
} from '../src/index.js'

const source = {
  PATH: '/usr/bin',
  HOME: '/home/user',
  USER: 'user',
  TMPDIR: '/tmp',
  LANG: 'C.UTF-8',
  FOO: 'foo',
  MY_API_TOKEN: 'token',
  OPENAI_API_KEY: 'key',
  monkey: 'lowercase key',
  Client_Secret: 'secret',
  UNSET: undefined,
}

describe('shellEnvironment', () => {
  it('by default inherits everything but names holding KEY, SECRET or TOKEN, in any case', () => {
    expect(shellEnvironment(source)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/user',
      USER: 'user',
      TMPDIR: '/tmp',
      LANG: 'C.UTF-8',
      FOO: 'foo',
    })
    expect(DEFAULT_ENV_EXCLUDES).toEqual(['*KEY*', '*SECRET*', '*TOKEN*'])
  })

  it('returns a new object and leaves the source alone', () => {
    const copy = { ...source }
    const env = shellEnvironment(source, { ignoreDefaultExcludes: true })
    expect(env).not.toBe(source)
    expect(source).toEqual(copy)
  })

  it('inherit: all with ignoreDefaultExcludes keeps every defined variable', () => {
    const { UNSET: _, ...defined } = source
    expect(shellEnvironment(source, { inherit: 'all', ignoreDefaultExcludes: true })).toEqual(defined)
  })

  it('inherit: core keeps only the core names, compared exactly', () => {
    expect(CORE_ENV_VARS).toEqual(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP'])
    expect(shellEnvironment({ ...source, path: 'lower' }, { inherit: 'core', ignoreDefaultExcludes: true })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/user',
      USER: 'user',
      TMPDIR: '/tmp',
    })
  })

  it('inherit: none starts empty', () => {
    expect(shellEnvironment(source, { inherit: 'none', ignoreDefaultExcludes: true })).toEqual({})
  })

  it('exclude removes the names its globs match, case-insensitively', () => {
    const env = shellEnvironment(source, { ignoreDefaultExcludes: true, exclude: ['foo', 'T?PDIR', '*_api_*'] })
    expect(Object.keys(env).sort()).toEqual(['Client_Secret', 'HOME', 'LANG', 'PATH', 'USER', 'monkey'])
  })

  it('a glob matches the whole name, and other characters are literal', () => {
    expect(envNamePattern('PATH').test('PATH')).toBe(true)
    expect(envNamePattern('PATH').test('MANPATH')).toBe(false)
    expect(envNamePattern('*PATH').test('MANPATH')).toBe(true)
    expect(envNamePattern('A?C').test('abc')).toBe(true)
    expect(envNamePattern('A?C').test('AC')).toBe(false)
    expect(envNamePattern('A*').test('A')).toBe(true)
    expect(envNamePattern('A.B').test('AxB')).toBe(false)
    expect(envNamePattern('A.B').test('a.b')).toBe(true)
    expect(envNamePattern('X(Y)+[Z]').test('X(Y)+[Z]')).toBe(true)
  })

  it('set adds and overrides variables', () => {
    expect(shellEnvironment({ PATH: '/usr/bin', FOO: 'old' }, { set: { FOO: 'new', BAR: 'bar' } })).toEqual({
      PATH: '/usr/bin',
      FOO: 'new',
      BAR: 'bar',
    })
  })

  it('includeOnly keeps only the names its globs match; an empty list keeps everything', () => {
    expect(shellEnvironment(source, { includeOnly: ['path', 'h*'] })).toEqual({ PATH: '/usr/bin', HOME: '/home/user' })
    expect(shellEnvironment(source, { includeOnly: [] })).toEqual(shellEnvironment(source))
  })

  describe('applies the steps in order: inherit, default excludes, exclude, set, includeOnly', () => {
    const cases: [string, ShellEnvironmentPolicy, Record<string, string>][] = [
      // set comes after the default excludes and after exclude: a name either removes can still be set.
      ['set after the default excludes', { inherit: 'none', set: { GITHUB_TOKEN: 'given' } }, { GITHUB_TOKEN: 'given' }],
      ['set after exclude', { inherit: 'none', exclude: ['FOO'], set: { FOO: 'given' } }, { FOO: 'given' }],
      // includeOnly comes last: it filters what set added, and cannot bring back what an exclude removed.
      ['includeOnly after set', { inherit: 'none', set: { A: 'a', B: 'b' }, includeOnly: ['A'] }, { A: 'a' }],
      ['includeOnly after the default excludes', { includeOnly: ['*TOKEN*', 'FOO'] }, { FOO: 'foo' }],
      ['includeOnly after exclude', { includeOnly: ['FOO', 'LANG'], exclude: ['LANG'] }, { FOO: 'foo' }],
      // The default excludes and exclude work on what inherit kept.
      ['inherit before everything', { inherit: 'core', includeOnly: ['FOO', 'PATH'] }, { PATH: '/usr/bin' }],
      ['ignoreDefaultExcludes with includeOnly', { ignoreDefaultExcludes: true, includeOnly: ['MY_API_TOKEN'] }, { MY_API_TOKEN: 'token' }],
    ]
    it.each(cases)('%s', (_name, policy, expected) => {
      expect(shellEnvironment(source, policy)).toEqual(expected)
    })
  })
})

describe('checkShellEnvironmentPolicy', () => {
  it('accepts a valid policy', () => {
    expect(() =>
      checkShellEnvironmentPolicy({ inherit: 'core', ignoreDefaultExcludes: true, exclude: ['A*'], set: { B: 'b' }, includeOnly: [] }),
    ).not.toThrow()
  })

  it('names what is wrong', () => {
    expect(() => checkShellEnvironmentPolicy({ inherit: 'some' as never })).toThrow(
      'shellEnvironment.inherit must be one of all, core, none; got "some"',
    )
    expect(() => checkShellEnvironmentPolicy({ exclude: 'A*' as never })).toThrow('shellEnvironment.exclude must be an array')
    expect(() => checkShellEnvironmentPolicy({ includeOnly: [1] as never })).toThrow('shellEnvironment.includeOnly must be an array')
    expect(() => checkShellEnvironmentPolicy({ set: { A: 1 } as never })).toThrow('shellEnvironment.set.A must be a string')
  })
})
