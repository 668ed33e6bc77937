import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { SandboxPolicy } from '../../src/guardrails/types.js'
import { bwrapSandbox } from '../../src/sandbox/bwrap-sandbox.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-sandbox-write-')))
// Outside /tmp (writable under workspaceWrite) and outside the workspace.
const outside = realpathSync(mkdtempSync('/var/tmp/hk-sandbox-write-outside-'))
afterAll(() => {
  for (const dir of [base, outside]) rmSync(dir, { recursive: true, force: true })
})
const cwd = join(base, 'project')
mkdirSync(join(cwd, '.git'), { recursive: true })

const workspaceWrite: SandboxPolicy = {
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess: false,
  excludeSlashTmp: false,
  excludeTmpdirEnvVar: false,
}
const readOnly: SandboxPolicy = { type: 'readOnly', networkAccess: false }
const sandbox = bwrapSandbox()

const READ_ONLY = /^Could not write .*: read-only file system \(outside the sandbox's writable roots/

describe.skipIf(process.platform !== 'linux')('bwrapSandbox.writeFile', () => {
  it('writes inside the writable roots byte for byte, parents created', async () => {
    const contents = ['', 'no trailing newline', 'line\n', 'é ✓ 😀\r\n\ttabs\0nul', 'x'.repeat(300_000)]
    for (const [index, content] of contents.entries()) {
      const path = join(cwd, 'new', 'dirs', `file-${index}`)
      await sandbox.writeFile({ policy: workspaceWrite, cwd, path, content })
      // As base64: comparing big Buffers element by element is slow.
      expect(readFileSync(path).toString('base64')).toBe(Buffer.from(content, 'utf8').toString('base64'))
    }
  })

  it('replaces an existing file, and resolves a relative path against cwd', async () => {
    writeFileSync(join(cwd, 'existing.txt'), 'a longer old content\n')
    await sandbox.writeFile({ policy: workspaceWrite, cwd, path: 'existing.txt', content: 'new' })
    expect(readFileSync(join(cwd, 'existing.txt'), 'utf8')).toBe('new')
  })

  it('is refused by the OS outside the writable roots, with EROFS, leaving nothing', async () => {
    const path = join(outside, 'sub', 'file.txt')
    const refusal = sandbox.writeFile({ policy: workspaceWrite, cwd, path, content: 'x' })
    await expect(refusal).rejects.toMatchObject({ code: 'EROFS', message: expect.stringMatching(READ_ONLY) })
    await expect(refusal).rejects.toThrow(`Could not write ${path}: `)
    expect(existsSync(join(outside, 'sub'))).toBe(false)
  })

  it('is refused in a protected name and everywhere under readOnly', async () => {
    await expect(sandbox.writeFile({ policy: workspaceWrite, cwd, path: '.git/config', content: 'x' })).rejects.toMatchObject({
      code: 'EROFS',
    })
    await expect(sandbox.writeFile({ policy: readOnly, cwd, path: 'ro.txt', content: 'x' })).rejects.toMatchObject({ code: 'EROFS' })
    expect(existsSync(join(cwd, '.git', 'config'))).toBe(false)
    expect(existsSync(join(cwd, 'ro.txt'))).toBe(false)
  })

  it('says what else went wrong, with its errno', async () => {
    mkdirSync(join(cwd, 'a-directory'))
    await expect(sandbox.writeFile({ policy: workspaceWrite, cwd, path: 'a-directory', content: 'x' })).rejects.toMatchObject({
      code: 'EISDIR',
      message: expect.stringMatching(/^Could not write .*a-directory: .*Is a directory/),
    })
  })

  it('rejects with the signal’s reason when aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(
      sandbox.writeFile({ policy: workspaceWrite, cwd, path: 'aborted.txt', content: 'x', signal: controller.signal }),
    ).rejects.toThrow('stop')
    expect(existsSync(join(cwd, 'aborted.txt'))).toBe(false)
  })

  it('writes anywhere, directly, under dangerFullAccess', async () => {
    const path = join(outside, 'danger', 'file.txt')
    await sandbox.writeFile({ policy: { type: 'dangerFullAccess' }, cwd, path, content: 'direct' })
    expect(readFileSync(path, 'utf8')).toBe('direct')
  })
})
