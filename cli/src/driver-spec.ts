import type { PermissionMode, SdkPermissionSettings } from '@harness-kernel/claude-code'
import type { Driver, Session } from '@harness-kernel/kernel'
import { nativeDriver } from '@harness-kernel/kernel'
import { CliError } from './cli-error.js'
import { modelProviders } from './model-spec.js'

/** The drivers `--driver` and the config's `driver` can name. */
export type DriverName = 'native' | 'claude-code' | 'codex'

/** The config's `driver` (and `createHarness`'s): a name, or a `Driver` object for programmatic configs. */
export type DriverOption = DriverName | Driver

export interface DriverContext {
  cwd: string
  /**
   * The CLI's environment: handed to the driven program (Claude Code reads its endpoint, key and model there; Codex its
   * key, `OPENAI_API_KEY`, while the `codex` entry reads Codex's endpoint there, `OPENAI_BASE_URL`).
   */
  env: Record<string, string | undefined>
  /** The model name for a driver that brings its own model (`claude-code`: `--model claude-sonnet-4-5`; `codex`: `--model gpt-5.1-codex`). */
  model?: string
  /**
   * The user's Claude Code permission rules and mode (from the Claude Code dialect), for a driven Claude Code to enforce
   * on its own built-in tools with its own engine.
   */
  claudeCodePermissions?: { settings: SdkPermissionSettings; mode: PermissionMode | undefined }
  /** More of a driven Claude Code's environment per session (the telemetry plugin's, to export its own telemetry). */
  claudeCodeEnvironment?: (session: Session) => Record<string, string | undefined>
}

export interface DriverEntry {
  /** One line for the list of drivers. */
  description: string
  /** True when the driven program brings its own model: no `--model` is needed, and `--model` names its model. */
  ownModel: boolean
  /** Makes the driver; a driver package loads only here, so a run on another driver never imports it. */
  create(context: DriverContext): Promise<Driver>
}

export const DEFAULT_DRIVER: DriverName = 'native'

/** Codex's endpoint under `--driver codex` when `OPENAI_BASE_URL` is not set. */
export const CODEX_DEFAULT_BASE_URL = 'https://api.openai.com/v1'
/** The variable Codex reads its key from under `--driver codex`. */
export const CODEX_KEY_VARIABLE = 'OPENAI_API_KEY'

export const drivers: Readonly<Record<DriverName, DriverEntry>> = {
  native: {
    description: "the kernel's own loop (default): samples the model of --model",
    ownModel: false,
    create: async () => nativeDriver(),
  },
  'claude-code': {
    description:
      'each turn runs inside Claude Code (Agent SDK), which brings its model: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL or --model NAME',
    ownModel: true,
    async create({ env, model, claudeCodePermissions, claudeCodeEnvironment }) {
      // Loaded lazily: the Claude Code driver (and, when a session runs, the Agent SDK) stays out of native runs.
      const { claudeCodeDriver } = await import('@harness-kernel/driver-claude-code').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error
        throw new CliError('--driver claude-code needs the Claude Code driver: npm install @harness-kernel/driver-claude-code')
      })
      return claudeCodeDriver({
        env,
        ...(claudeCodeEnvironment === undefined ? {} : { environment: claudeCodeEnvironment }),
        ...(model === undefined ? {} : { model }),
        ...(claudeCodePermissions === undefined
          ? {}
          : {
              queryOptions: { settings: claudeCodePermissions.settings },
              ...(claudeCodePermissions.mode === undefined ? {} : { permissionMode: claudeCodePermissions.mode }),
            }),
      })
    },
  },
  codex: {
    description:
      'each turn runs inside Codex (codex app-server), which brings its model: --model openai:MODEL or MODEL, from OPENAI_BASE_URL (any Responses API) with OPENAI_API_KEY',
    ownModel: true,
    async create({ env, model }) {
      // Loaded lazily: the Codex driver stays out of runs on other drivers; Codex itself starts at a session's first turn.
      const { codexDriver } = await import('@harness-kernel/driver-codex').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error
        throw new CliError('--driver codex needs the Codex driver: npm install @harness-kernel/driver-codex')
      })
      const baseUrl = env.OPENAI_BASE_URL?.trim() || CODEX_DEFAULT_BASE_URL
      if (!/^https?:\/\//i.test(baseUrl)) {
        throw new CliError(
          `--driver codex: OPENAI_BASE_URL must be an http(s) URL (a Responses API, e.g. ${CODEX_DEFAULT_BASE_URL}), not ${JSON.stringify(baseUrl)}`,
        )
      }
      if (!env[CODEX_KEY_VARIABLE]?.trim()) {
        throw new CliError(
          `--driver codex needs an API key for Codex's provider (${baseUrl}): set ${CODEX_KEY_VARIABLE} (any value for a server that takes none)`,
        )
      }
      return codexDriver({ env, provider: { baseUrl, envKey: CODEX_KEY_VARIABLE }, ...(model === undefined ? {} : { model }) })
    },
  },
}

export const DRIVER_NAMES = Object.keys(drivers) as DriverName[]

export const DRIVER_USAGE = `--driver ${DRIVER_NAMES.join('|')}`

export function isDriverName(value: unknown): value is DriverName {
  return typeof value === 'string' && Object.hasOwn(drivers, value)
}

/** Every driver with what it is, for messages. */
export function driverOptionsHelp(): string {
  const width = Math.max(...DRIVER_NAMES.map((name) => name.length))
  return DRIVER_NAMES.map((name) => `  ${name.padEnd(width)}  ${drivers[name].description}`).join('\n')
}

/** A driver name from a flag or an API caller; an unknown one is a usage error that lists the drivers. */
export function parseDriverName(value: string, where = '--driver'): DriverName {
  const name = value.trim()
  if (isDriverName(name)) return name
  throw new CliError(`unknown driver "${value}" (${where}); the drivers are:\n${driverOptionsHelp()}`)
}

/** A shallow check that a value is a `Driver` object (the kernel checks its specification version). */
export function isDriverObject(value: unknown): value is Driver {
  if (typeof value !== 'object' || value === null) return false
  const driver = value as Partial<Driver>
  return typeof driver.id === 'string' && typeof driver.open === 'function' && typeof driver.capabilities === 'object'
}

/** True when the driver brings its own model, so the harness composes none. */
export function driverOwnsModel(driver: DriverOption): boolean {
  return typeof driver === 'string' ? drivers[driver].ownModel : driver.capabilities?.model === 'own'
}

/**
 * The model name for `--driver claude-code`, from `--model` or the config's `model`: a Claude model name or alias
 * (`claude-sonnet-4-5`, `sonnet`, a Bedrock or Vertex id) as Claude Code's `--model` takes it, or `anthropic:NAME`.
 * A spec of another provider (`scripted:`, `openai:`, …) is a usage error: Claude Code samples only its own model.
 */
export function claudeCodeModelName(spec: string, where: string): string {
  const colon = spec.indexOf(':')
  const provider = colon === -1 ? '' : spec.slice(0, colon).trim()
  const name = (provider === 'anthropic' ? spec.slice(colon + 1) : spec).trim()
  if (provider !== 'anthropic' && Object.hasOwn(modelProviders, provider)) {
    throw new CliError(
      `${where} "${spec}" names the ${provider} provider, but the claude-code driver runs Claude Code, which brings its own model: ` +
        "pass a Claude model name (e.g. --model claude-sonnet-4-5), or no --model for Claude Code's default (ANTHROPIC_MODEL)",
    )
  }
  if (name === '') throw new CliError(`${where} "${spec}": expected a Claude model name, e.g. claude-sonnet-4-5`)
  return name
}

/**
 * The model name for `--driver codex`, from `--model` or the config's `model`: `openai:MODEL` or a bare `MODEL`, the name
 * Codex asks its Responses provider for (`OPENAI_BASE_URL`). A spec of another provider (`anthropic:`, `scripted:`, …) is a
 * usage error: Codex samples only its own model.
 */
export function codexModelName(spec: string, where: string): string {
  const colon = spec.indexOf(':')
  const provider = colon === -1 ? '' : spec.slice(0, colon).trim()
  const name = (provider === 'openai' ? spec.slice(colon + 1) : spec).trim()
  if (provider !== 'openai' && Object.hasOwn(modelProviders, provider)) {
    throw new CliError(
      `${where} "${spec}" names the ${provider} provider, but the codex driver runs Codex, which brings its own model: ` +
        "pass a model of Codex's Responses provider (e.g. --model openai:gpt-5.1-codex; the endpoint is OPENAI_BASE_URL), or no --model for Codex's default",
    )
  }
  if (name === '') throw new CliError(`${where} "${spec}": expected a model name, e.g. openai:gpt-5.1-codex`)
  return name
}
