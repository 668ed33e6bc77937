export interface PostgresFleetOptions {
  /**
   * How often `watchInbox` also looks for threads with open rows, and `watchAsks` for requests to deliver or ended,
   * besides `LISTEN`: the safety net for a notification lost while its connection was down. Also how often a waiting
   * `ask` reads its row and checks that its front-end is present. Default 1000.
   */
  pollMs?: number
  /** How often `follow` asks for a thread's new events. Default 100. */
  followPollMs?: number
}

export const DEFAULT_POLL_MS = 1000
export const DEFAULT_FOLLOW_POLL_MS = 100
