import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CodexDriverOptions } from './options.js'

export const PROVIDER_ID = 'harness-kernel'

/**
 * The folder Codex runs with as `CODEX_HOME`, with the `config.toml` the options call for; `undefined`
 * for `codexHome: 'user'` (Codex's usual place, its config untouched).
 */
export function prepareCodexHome(options: CodexDriverOptions, stateDir: string): string | undefined {
  const setting = options.codexHome ?? 'isolated'
  if (setting === 'user') {
    if (options.provider)
      throw new TypeError("codexDriver: `provider` needs a CODEX_HOME the driver writes; it cannot go with codexHome: 'user'")
    return undefined
  }
  const home = setting === 'isolated' ? join(stateDir, 'codex-home') : setting
  mkdirSync(home, { recursive: true })
  writeFileSync(join(home, 'config.toml'), configToml(options))
  return home
}

function configToml({ model, provider }: CodexDriverOptions): string {
  const lines = ['# Written by @harness-kernel/driver-codex for each session it runs.']
  if (model !== undefined) lines.push(`model = ${toml(model)}`)
  if (provider) {
    lines.push(`model_provider = ${toml(PROVIDER_ID)}`, '', `[model_providers.${PROVIDER_ID}]`)
    lines.push(`name = ${toml(provider.name ?? PROVIDER_ID)}`)
    lines.push(`base_url = ${toml(provider.baseUrl.replace(/\/+$/, ''))}`)
    lines.push(`env_key = ${toml(provider.envKey ?? 'OPENAI_API_KEY')}`)
    lines.push(`wire_api = "responses"`)
    if (provider.requestMaxRetries !== undefined) lines.push(`request_max_retries = ${Math.trunc(provider.requestMaxRetries)}`)
    if (provider.streamMaxRetries !== undefined) lines.push(`stream_max_retries = ${Math.trunc(provider.streamMaxRetries)}`)
  }
  return `${lines.join('\n')}\n`
}

/** A TOML basic string (JSON's escapes are TOML's). */
function toml(value: string): string {
  return JSON.stringify(value)
}
