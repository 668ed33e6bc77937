import { definePlugin, type Plugin } from '../plugin.js'
import { type CompactorOptions, defaultCompactor, RETAIN_MODES } from './default-compactor.js'

/**
 * Automatic compaction on the native loop: before a model request whose estimated size passes `threshold` of
 * `contextWindow`, the conversation is replaced by a summary the session's model writes and what `retain` keeps (see
 * `defaultCompactor`).
 * It provides the `compactor` service, which `session.compact()` uses too. Drivers that run a program with its own
 * compaction (Claude Code, Codex) leave it to the program.
 */
export function compaction(options: CompactorOptions = {}): Plugin {
  for (const [name, value] of Object.entries(options)) {
    if (name === 'prompt') continue
    if (name === 'retain') {
      if (!RETAIN_MODES.includes(value as never))
        throw new TypeError(`compaction: retain must be one of ${RETAIN_MODES.join(', ')}, got ${String(value)}`)
      continue
    }
    if (!(typeof value === 'number' && value > 0) || (name === 'threshold' && value > 1))
      throw new TypeError(`compaction: ${name} must be a number > 0${name === 'threshold' ? ' and <= 1' : ''}, got ${String(value)}`)
  }
  if (options.prompt !== undefined && (typeof options.prompt !== 'string' || options.prompt.trim() === ''))
    throw new TypeError('compaction: prompt must be a non-empty string')
  const compactor = defaultCompactor(options)
  return definePlugin({
    name: 'compaction',
    setup(kernel) {
      kernel.provide('compactor', compactor, { lifetime: 'kernel' })
    },
  })
}
