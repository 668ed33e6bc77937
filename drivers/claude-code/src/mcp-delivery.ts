import type { Options } from '@anthropic-ai/claude-agent-sdk'

/**
 * The user's MCP servers (`queryOptions.mcpServers`) that the Agent SDK hands Claude Code over stdin, in the
 * initialize request (`mcpServersDelivery: 'initialize'`, its default since 0.3.333): their names, or none when
 * they go on the command line (`'argv'`) or are all in-process. Such servers need Claude Code 2.1.326 or newer.
 */
export function serversSentAtInitialize(options: Partial<Options>): string[] {
  if ((options.mcpServersDelivery ?? 'initialize') !== 'initialize') return []
  return Object.entries(options.mcpServers ?? {})
    .filter(([, config]) => config.type !== 'sdk')
    .map(([name]) => name)
}

const ARGV_FIX =
  "or set `queryOptions.mcpServersDelivery: 'argv'`, which puts the servers' env and headers on Claude Code's command line, where other users of this machine can read them"

/** Claude Code took the servers' request but did not load them (`mcp_servers_applied: false`). */
export function serversNotAppliedMessage(names: readonly string[], executable: string): string {
  return (
    `Claude Code at ${executable} did not load the MCP servers of queryOptions.mcpServers (${names.join(', ')}) that the Agent SDK ` +
    'sent over stdin (mcp_servers_applied: false), so the turn was not run without them. A wrapper around the executable ' +
    `that drops --await-initialize does this: have it pass every argument on to Claude Code, ${ARGV_FIX}.`
  )
}

/** The Agent SDK's startup error for a Claude Code older than 2.1.326 given servers over stdin, in the driver's terms. */
export function tooOldMessage(sdkError: string, names: readonly string[], executable: string): string | undefined {
  const tooOld = sdkError.includes('too old to read MCP servers') || sdkError.includes("unknown option '--await-initialize'")
  if (!tooOld || names.length === 0) return undefined
  return (
    `Claude Code at ${executable} is too old for the MCP servers of queryOptions.mcpServers (${names.join(', ')}): the Agent SDK ` +
    'sends them over stdin, which keeps their env and headers off the command line and needs Claude Code 2.1.326 or newer. ' +
    `Update that Claude Code, or leave out the driver's \`executable\` option to use the one the Agent SDK installed, ${ARGV_FIX}. ` +
    `(${sdkError})`
  )
}
