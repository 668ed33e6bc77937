import type { Boundary, InputItem, SteeringClaim, SteeringSource } from '@harness-kernel/kernel'

export interface ClaimRecord {
  boundary: Boundary
  items: InputItem[]
  settlements: ('accept' | 'reject')[]
  dropped: string[]
}

/** A host source that answers each boundary from a function and records every claim and settlement. */
export class RecordingSource implements SteeringSource {
  readonly capability = 'boundary' as const
  readonly transport = 'host'
  readonly claims: ClaimRecord[] = []
  readonly #answer: (boundary: Boundary) => InputItem[] | undefined
  readonly #onAccept: ((record: ClaimRecord) => void) | undefined

  constructor(answer: (boundary: Boundary) => InputItem[] | undefined, onAccept?: (record: ClaimRecord) => void) {
    this.#answer = answer
    this.#onAccept = onAccept
  }

  async wait(): Promise<void> {}

  async claim(boundary: Boundary): Promise<SteeringClaim | undefined> {
    const items = this.#answer(boundary)
    if (items === undefined) {
      this.claims.push({ boundary, items: [], settlements: [], dropped: [] })
      return undefined
    }
    const record: ClaimRecord = { boundary, items, settlements: [], dropped: [] }
    this.claims.push(record)
    return {
      items,
      accept: () => {
        record.settlements.push('accept')
        this.#onAccept?.(record)
      },
      reject: () => {
        record.settlements.push('reject')
      },
      drop: (id) => {
        record.dropped.push(id)
      },
    }
  }
}
