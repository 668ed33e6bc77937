import { describe, expect, it } from 'vitest'
import { parseOptions } from '../options.mjs'

describe('parseOptions', () => {
  it('runs every part with two jobs by default', () => {
    expect(parseOptions([])).toEqual({ only: ['codex', 'claude-code', 'schema'], jobs: 2, help: false })
  })

  it('takes versions, folders, jobs and parts (repeated or comma-separated)', () => {
    const options = parseOptions([
      '--codex',
      '0.172.0',
      '--sdk',
      '0.3.340',
      '--dir',
      '/d',
      '--out',
      '/o',
      '--jobs',
      '3',
      '--only',
      'codex,schema',
    ])
    expect(options).toEqual({ codex: '0.172.0', sdk: '0.3.340', dir: '/d', out: '/o', jobs: 3, only: ['codex', 'schema'], help: false })
    expect(parseOptions(['--only', 'schema', '--only', 'claude-code']).only).toEqual(['schema', 'claude-code'])
  })

  it('refuses an unknown part, a bad job count, an inexact version and unknown options', () => {
    expect(() => parseOptions(['--only', 'kernel'])).toThrow('--only kernel')
    expect(() => parseOptions(['--jobs', '0'])).toThrow('--jobs 0')
    expect(() => parseOptions(['--codex', 'latest'])).toThrow('--codex latest')
    expect(() => parseOptions(['--frobnicate'])).toThrow()
  })
})
