import { describe, expect, it } from 'vitest'
import {
  CodexGuardrailsConfigError,
  parseApprovalPolicy,
  parseSandboxMode,
  parseSandboxPolicy,
  sandboxPolicyOf,
} from '../src/config/guardrails/index.js'

function failure(run: () => unknown): CodexGuardrailsConfigError {
  try {
    run()
  } catch (err) {
    expect(err).toBeInstanceOf(CodexGuardrailsConfigError)
    return err as CodexGuardrailsConfigError
  }
  throw new Error('expected a CodexGuardrailsConfigError')
}

describe('parseSandboxMode', () => {
  it("takes Codex's three modes and names value and where for anything else", () => {
    for (const mode of ['read-only', 'workspace-write', 'danger-full-access']) expect(parseSandboxMode(mode, '--sandbox')).toBe(mode)
    const error = failure(() => parseSandboxMode('readonly', '--sandbox'))
    expect(error.message).toBe(
      '--sandbox: "readonly" is not a sandbox mode; expected "read-only", "workspace-write" or "danger-full-access"',
    )
    expect(error.source).toBe('--sandbox')
    expect(failure(() => parseSandboxMode(undefined, 'thread/start sandbox')).message).toMatch(/^thread\/start sandbox: nothing is not/)
  })
})

describe('parseApprovalPolicy', () => {
  it('takes untrusted (the CLI and the App Server still do), on-failure, on-request, never', () => {
    for (const policy of ['untrusted', 'on-failure', 'on-request', 'never']) expect(parseApprovalPolicy(policy, '-a')).toBe(policy)
  })

  it('takes granular with the App Server schema: three categories required, two defaulting to false, others ignored', () => {
    expect(
      parseApprovalPolicy({ granular: { sandbox_approval: false, rules: true, mcp_elicitations: false, later: 1 } }, 'approvalPolicy'),
    ).toEqual({
      granular: { sandbox_approval: false, rules: true, skill_approval: false, request_permissions: false, mcp_elicitations: false },
    })
    const full = { sandbox_approval: true, rules: true, skill_approval: true, request_permissions: true, mcp_elicitations: true }
    expect(parseApprovalPolicy({ granular: full }, 'approvalPolicy')).toEqual({ granular: full })
  })

  it('names value and where for anything else', () => {
    expect(failure(() => parseApprovalPolicy('always', 'approvalPolicy')).message).toBe(
      'approvalPolicy: "always" is not an approval policy; expected "untrusted", "on-failure", "on-request", "never" or { granular = {…} }',
    )
    expect(failure(() => parseApprovalPolicy({ granular: { rules: true, mcp_elicitations: true } }, 'approvalPolicy')).message).toBe(
      'approvalPolicy: granular.sandbox_approval: is missing (a boolean is required)',
    )
    expect(
      failure(() => parseApprovalPolicy({ granular: { sandbox_approval: 1, rules: true, mcp_elicitations: true } }, 'approvalPolicy'))
        .message,
    ).toBe('approvalPolicy: granular.sandbox_approval: 1 is not a boolean')
    expect(failure(() => parseApprovalPolicy({ granular: {}, never: true }, 'approvalPolicy')).message).toMatch(
      /^approvalPolicy: \{"granular":\{\},"never":true\} is not an approval policy/,
    )
  })
})

describe('sandboxPolicyOf', () => {
  it('expands a mode with Codex defaults, [sandbox_workspace_write] only for workspace-write', () => {
    const settings = { writableRoots: ['/a'], networkAccess: true }
    expect(sandboxPolicyOf('read-only', settings)).toEqual({ type: 'readOnly', networkAccess: false })
    expect(sandboxPolicyOf('danger-full-access', settings)).toEqual({ type: 'dangerFullAccess' })
    expect(sandboxPolicyOf('workspace-write')).toEqual({
      type: 'workspaceWrite',
      writableRoots: [],
      networkAccess: false,
      excludeTmpdirEnvVar: false,
      excludeSlashTmp: false,
    })
    expect(sandboxPolicyOf('workspace-write', settings)).toEqual({
      type: 'workspaceWrite',
      writableRoots: ['/a'],
      networkAccess: true,
      excludeTmpdirEnvVar: false,
      excludeSlashTmp: false,
    })
  })
})

describe('parseSandboxPolicy', () => {
  it("applies the defaults of Codex 0.169.0's App Server JSON schema", () => {
    // `codex app-server generate-json-schema` (1 run): readOnly.networkAccess default false; workspaceWrite
    // writableRoots default [], networkAccess / excludeTmpdirEnvVar / excludeSlashTmp default false.
    expect(parseSandboxPolicy({ type: 'dangerFullAccess' }, 'sandboxPolicy')).toEqual({ type: 'dangerFullAccess' })
    expect(parseSandboxPolicy({ type: 'readOnly' }, 'sandboxPolicy')).toEqual({ type: 'readOnly', networkAccess: false })
    expect(parseSandboxPolicy({ type: 'readOnly', networkAccess: true }, 'sandboxPolicy')).toEqual({
      type: 'readOnly',
      networkAccess: true,
    })
    expect(parseSandboxPolicy({ type: 'workspaceWrite' }, 'sandboxPolicy')).toEqual(sandboxPolicyOf('workspace-write'))
    expect(
      parseSandboxPolicy(
        { type: 'workspaceWrite', writableRoots: ['/opt/x/../y/'], networkAccess: true, excludeTmpdirEnvVar: true, excludeSlashTmp: true },
        'sandboxPolicy',
      ),
    ).toEqual({ type: 'workspaceWrite', writableRoots: ['/opt/y'], networkAccess: true, excludeTmpdirEnvVar: true, excludeSlashTmp: true })
  })

  it('refuses externalSandbox clearly, and malformed policies naming value and where', () => {
    expect(
      failure(() => parseSandboxPolicy({ type: 'externalSandbox', networkAccess: 'enabled' }, 'turn/start sandboxPolicy')).message,
    ).toBe(
      'turn/start sandboxPolicy: type: "externalSandbox" is not supported: the harness enforces the sandbox itself; use "readOnly", "workspaceWrite" or "dangerFullAccess"',
    )
    expect(failure(() => parseSandboxPolicy({ type: 'sealed' }, 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: type: "sealed" is not a sandbox policy type; expected "dangerFullAccess", "readOnly" or "workspaceWrite"',
    )
    expect(failure(() => parseSandboxPolicy('workspace-write', 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: "workspace-write" is not a sandbox policy object',
    )
    expect(failure(() => parseSandboxPolicy({ type: 'readOnly', networkAccess: 'yes' }, 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: networkAccess: "yes" is not a boolean',
    )
    expect(failure(() => parseSandboxPolicy({ type: 'workspaceWrite', excludeSlashTmp: null }, 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: excludeSlashTmp: null is not a boolean',
    )
    expect(failure(() => parseSandboxPolicy({ type: 'workspaceWrite', writableRoots: ['rel'] }, 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: writableRoots: "rel" is not an absolute path (writable roots must be absolute)',
    )
    expect(failure(() => parseSandboxPolicy({ type: 'workspaceWrite', writableRoots: '/a' }, 'sandboxPolicy')).message).toBe(
      'sandboxPolicy: writableRoots: "/a" is not an array of absolute paths',
    )
  })
})
