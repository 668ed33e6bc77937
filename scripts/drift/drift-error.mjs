// A part of the drift run that could not run (the registry, an install, a suite that found no client): the command
// exits non-zero with its message. Drift itself is information, never an error.
export class DriftError extends Error {
  name = 'DriftError'
}
