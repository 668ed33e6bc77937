import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const linked = join(root, 'node_modules', '.bin', 'harness')

describe('the harness command after npm ci', () => {
  it('is linked by the install to the committed bin/harness.js, and runs the built CLI', () => {
    expect(existsSync(linked)).toBe(true)
    expect(realpathSync(linked)).toBe(join(root, 'cli', 'bin', 'harness.js'))
    const help = execFileSync(linked, ['--help'], { cwd: root, encoding: 'utf8' })
    expect(help).toMatch(/^Usage: harness \[options\] \[command\]/)
    expect(execFileSync('npm', ['exec', '--no', '--', 'harness', '--version'], { cwd: root, encoding: 'utf8' }).trim()).toMatch(
      /^\d+\.\d+\.\d+$/,
    )
  })

  it('runs the README’s scripted example: one harmless command, then the answer', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hk-readme-run-'))
    try {
      const script = join(root, 'examples', 'quickstart', 'hello.yaml')
      const out = execFileSync(linked, ['run', '--cwd', cwd, '--model', `scripted:${script}`, 'Say hello'], { cwd: root, encoding: 'utf8' })
      expect(out.trim().split('\n').at(-1)).toBe('I ran one command and looked at where I am. That is all this script does.')
    } finally {
      rmSync(cwd, { recursive: true, force: true })
    }
  })
})
