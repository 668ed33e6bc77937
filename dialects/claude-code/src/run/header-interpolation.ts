const VARIABLE_REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g

/** Expands `$VAR` and `${VAR}` in a header value: listed names take their value (empty when unset), any other name becomes empty. */
export function interpolateHeaderValue(
  value: string,
  allowedEnvVars: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string {
  const allowed = new Set(allowedEnvVars)
  return value.replace(VARIABLE_REFERENCE, (_reference, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!
    return allowed.has(name) ? (env[name] ?? '') : ''
  })
}

/** The environment a hook sees: the parent's with the hook's additions and removals applied. */
export function effectiveEnv(overlay: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...process.env, ...overlay }
}
