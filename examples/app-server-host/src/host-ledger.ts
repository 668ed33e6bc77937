import type { Notification, RequestId } from '@harness-kernel/app-server'

/** How the host sent an item: the turn's input, a `turn/steer`, or an answer to `turn/hostInput/request`. */
export type SentVia = 'turn/start' | 'turn/steer' | 'turn/hostInput/request'

export interface SentItem {
  clientId: string
  via: SentVia
  text: string
  /** The `turn/hostInput/request` id it answered. */
  requestId?: RequestId
  /** An error response to the request that carried it (e.g. `no active turn to steer`): the host still owns it. */
  refused?: string
}

export interface ItemOutcome extends SentItem {
  /** Turn ids of the items that recorded it (`userMessage` / `hostInputMessage`, matched on `clientId`). */
  recordedIn: string[]
  /** How the server handed it back, if it did. */
  reportedBack: string[]
  ok: boolean
}

/**
 * What the host sent, by `clientId`, and what became of it. The server must either record each item exactly once or
 * hand it back (`turn/steer/dropped`, `turn/hostInput/rejected`, an item `blockedByHook`, an error response).
 */
export class HostLedger {
  readonly sent: SentItem[] = []

  add(item: SentItem): void {
    this.sent.push(item)
  }

  refuse(clientId: string, message: string): void {
    const item = this.sent.find((entry) => entry.clientId === clientId)
    if (item) item.refused = message
  }

  outcomes(notifications: readonly Notification[]): ItemOutcome[] {
    return this.sent.map((item) => {
      const recordedIn: string[] = []
      const reportedBack: string[] = item.refused === undefined ? [] : [`error response: ${item.refused}`]
      for (const { method, params } of notifications) {
        if (method === 'item/completed') {
          const wire = params.item as { type: string; clientId?: string | null }
          if ((wire.type === 'userMessage' || wire.type === 'hostInputMessage') && wire.clientId === item.clientId) {
            recordedIn.push(String(params.turnId))
          }
        } else if (method === 'turn/steer/dropped' && params.clientUserMessageId === item.clientId) {
          reportedBack.push(`turn/steer/dropped (${String(params.reason)})`)
        } else if (item.requestId !== undefined && params.requestId === item.requestId) {
          if (method === 'turn/hostInput/rejected') reportedBack.push(`turn/hostInput/rejected (${String(params.reason)})`)
          if (method === 'turn/hostInput/accepted') {
            const index = this.sent.filter((entry) => entry.requestId === item.requestId).indexOf(item)
            const status = (params.items as { index: number; status: string }[]).find((entry) => entry.index === index)?.status
            if (status === 'blockedByHook') reportedBack.push('turn/hostInput/accepted (blockedByHook)')
          }
        }
      }
      const ok = (recordedIn.length === 1 && reportedBack.length === 0) || (recordedIn.length === 0 && reportedBack.length > 0)
      return { ...item, recordedIn, reportedBack, ok }
    })
  }
}
