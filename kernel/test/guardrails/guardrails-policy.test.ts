import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKernel, DEFAULT_GUARDRAILS_POLICY, guardrails, isWritablePath, writableRoots } from '../../src/index.js'
import { modelPlugin } from '../helpers.js'

describe('guardrails policy', () => {
  it("defaults to Codex's: workspace-write with the network off, on-request", async () => {
    const kernel = createKernel([modelPlugin], { cwd: mkdtempSync(join(tmpdir(), 'hk-guard-')) })
    const session = await kernel.startSession()
    expect(session.guardrails.policy).toEqual(DEFAULT_GUARDRAILS_POLICY)
    expect(session.guardrails.policy.sandbox).toMatchObject({ type: 'workspaceWrite', networkAccess: false })
    await kernel.dispose()
  })

  it('refuses bad values, naming them and where they came from', () => {
    expect(() => guardrails({ sandbox: 'read-mostly' as never })).toThrow(
      'guardrails: sandbox: unknown sandbox mode "read-mostly"; expected read-only, workspace-write, danger-full-access',
    )
    expect(() => guardrails({ approvals: 'sometimes' as never })).toThrow('guardrails: approvals: unknown approval policy "sometimes"')
    const relative = {
      type: 'workspaceWrite',
      writableRoots: ['build'],
      networkAccess: false,
      excludeTmpdirEnvVar: false,
      excludeSlashTmp: false,
    }
    expect(() => guardrails({ sandbox: relative as never })).toThrow('guardrails: sandbox: writable root "build" must be an absolute path')
    expect(() => guardrails({ approvals: { granular: { sandbox_approval: 'yes' } } as never })).toThrow(
      'guardrails: approvals: granular.sandbox_approval must be true or false',
    )
  })

  it('setPolicy checks what it is given and keeps the old policy on a bad one; a subagent starts with its parent’s', async () => {
    const kernel = createKernel([modelPlugin, guardrails({ sandbox: 'read-only' })], { cwd: mkdtempSync(join(tmpdir(), 'hk-guard-')) })
    const session = await kernel.startSession()
    expect(() => session.guardrails.setPolicy({ approval: 'whenever' as never })).toThrow('unknown approval policy "whenever"')
    expect(session.guardrails.policy).toEqual({ sandbox: { type: 'readOnly', networkAccess: false }, approval: 'on-request' })
    session.guardrails.setPolicy({ approval: 'never' })
    const child = await kernel.startSubagent({ parent: session, agent: { type: 'worker' } })
    expect(child.guardrails.policy).toEqual({ sandbox: { type: 'readOnly', networkAccess: false }, approval: 'never' })
    await kernel.dispose()
  })
})

describe('writable paths', () => {
  it('resolve links and `..` first; protected names at any root that holds the path stay read-only', () => {
    const base = realpathSync(mkdtempSync(join('/var/tmp', 'hk-guard-roots-')))
    const cwd = join(base, 'project')
    const elsewhere = join(base, 'elsewhere')
    mkdirSync(join(cwd, '.git'), { recursive: true })
    mkdirSync(elsewhere)
    symlinkSync(elsewhere, join(cwd, 'out'))
    symlinkSync(join(elsewhere, 'missing.txt'), join(cwd, 'dangling'))
    const policy = { ...DEFAULT_GUARDRAILS_POLICY.sandbox, excludeSlashTmp: true, excludeTmpdirEnvVar: true }
    const roots = writableRoots(policy, cwd, {})
    expect(roots).toEqual([cwd])
    expect(isWritablePath(join(cwd, 'src/new.ts'), roots)).toBe(true)
    expect(isWritablePath(join(cwd, 'src/../../elsewhere/f'), roots)).toBe(false)
    expect(isWritablePath(join(cwd, 'out/f'), roots)).toBe(false)
    expect(isWritablePath(join(cwd, 'dangling'), roots)).toBe(false)
    expect(isWritablePath(join(cwd, '.git/config'), roots)).toBe(false)
    expect(isWritablePath(join(cwd, 'src/.git/config'), roots)).toBe(true)
    expect(isWritablePath(cwd, roots)).toBe(false)
    rmSync(base, { recursive: true, force: true })
  })
})
