import { resolve } from 'node:path'
import { z } from 'zod'
import { INVALID_REQUEST, invalidRequest, RpcError } from '../rpc-errors.js'
import type { MethodContext, MethodHandler } from './method-context.js'
import { objectParams, variant } from './method-params.js'
import {
  harnessHome,
  type MergeStrategy,
  SETTINGS_FILE_NAME,
  type SettingsEdit,
  SettingsError,
  SettingsFile,
  type SettingsSnapshot,
} from './settings-file.js'
import { isPlainObject, SETTINGS_KEYS, type Settings } from './settings-keys.js'

const MERGE_STRATEGIES: readonly MergeStrategy[] = ['replace', 'upsert']

const configReadParamsSchema = z.object({ includeLayers: z.boolean().nullish(), cwd: z.string().nullish() })
const editSchema = z.object({ keyPath: z.string(), value: z.unknown(), mergeStrategy: z.string() })
const valueWriteParamsSchema = editSchema.extend({ filePath: z.string().nullish(), expectedVersion: z.string().nullish() })
const batchWriteParamsSchema = z.object({
  edits: z.array(editSchema),
  filePath: z.string().nullish(),
  expectedVersion: z.string().nullish(),
  reloadUserConfig: z.boolean().nullish(),
})

/** The server's settings file: `config.json` in the harness home (the `home` option, `$HARNESS_HOME`, `~/.harness`). */
export function settingsFile(context: MethodContext): SettingsFile {
  return new SettingsFile(resolve(harnessHome(context.options.home), SETTINGS_FILE_NAME))
}

/** Codex's `ConfigLayerSource` of the settings file: the user layer (the only one there is, and the one written). */
function userLayer(file: SettingsFile) {
  return { type: 'user', file: file.path, profile: null }
}

/** `config/read`: the settings file as Codex's `{config, origins, layers}`; every known key is in `config` (null when unset). */
function configRead(params: unknown, context: MethodContext) {
  const parsed = objectParams(configReadParamsSchema, params)
  const file = settingsFile(context)
  const { settings, version } = readOrRefuse(file)
  const config: Settings = Object.fromEntries(SETTINGS_KEYS.map((key) => [key, null]))
  Object.assign(config, settings)
  const metadata = { name: userLayer(file), version }
  const origins = Object.fromEntries(leafPaths(settings).map((path) => [path, metadata]))
  const layers = parsed.includeLayers ? [{ name: userLayer(file), version, config: settings, disabledReason: null }] : null
  return { config, origins, layers }
}

/** `config/value/write`: one edit. */
function configValueWrite(params: unknown, context: MethodContext) {
  const parsed = objectParams(valueWriteParamsSchema, params)
  return write(context, [edit(parsed)], parsed.filePath, parsed.expectedVersion)
}

/** `config/batchWrite`: every edit, in order, or none. `reloadUserConfig` changes nothing: no setting applies before the next start. */
function configBatchWrite(params: unknown, context: MethodContext) {
  const parsed = objectParams(batchWriteParamsSchema, params)
  return write(context, parsed.edits.map(edit), parsed.filePath, parsed.expectedVersion)
}

/** `configRequirements/read`: the harness has no managed requirements (no requirements file, no policy). */
function configRequirementsRead() {
  return { supportsIndependentSpeedModes: null, requirements: null }
}

function edit(parsed: z.infer<typeof editSchema>): SettingsEdit {
  if (parsed.value === undefined) throw invalidRequest('Invalid request: missing field `value`')
  return { keyPath: parsed.keyPath, value: parsed.value, mergeStrategy: variant(parsed.mergeStrategy, MERGE_STRATEGIES) }
}

function write(
  context: MethodContext,
  edits: SettingsEdit[],
  filePath: string | null | undefined,
  expectedVersion: string | null | undefined,
) {
  const file = settingsFile(context)
  if (filePath !== undefined && filePath !== null && resolve(filePath) !== file.path) {
    throw refusal(new SettingsError('configLayerReadonly', 'Only writes to the user config are allowed'))
  }
  let written: SettingsSnapshot
  try {
    written = file.write(edits, expectedVersion)
  } catch (error) {
    throw error instanceof SettingsError ? refusal(error) : error
  }
  return { status: 'ok', version: written.version, filePath: file.path, overriddenMetadata: null }
}

function readOrRefuse(file: SettingsFile): SettingsSnapshot {
  try {
    return file.read()
  } catch (error) {
    throw error instanceof SettingsError ? refusal(error) : error
  }
}

/** A refused read or write as Codex answers it: `-32600` with `data.config_write_error_code`. */
function refusal(error: SettingsError): RpcError {
  return new RpcError(INVALID_REQUEST, error.message, { config_write_error_code: error.code })
}

/** The dotted path of every value that is not a map (Codex's `origins` keys). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (!isPlainObject(value)) return prefix === '' ? [] : [prefix]
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix === '' ? key : `${prefix}.${key}`))
}

export const CONFIG_METHODS: Readonly<Record<string, MethodHandler>> = {
  'config/read': configRead,
  'config/value/write': configValueWrite,
  'config/batchWrite': configBatchWrite,
  'configRequirements/read': configRequirementsRead,
}
