import type { RecordedRequest } from './recorded-request.js'

/** Those waiting for the Nth model request: settled as it arrives, not by polling the log. */
export class RequestWaiters {
  readonly #waiting: { n: number; settle(request: RecordedRequest): void }[] = []
  readonly #label: string
  readonly #requests: RecordedRequest[]

  constructor(label: string, requests: RecordedRequest[]) {
    this.#label = label
    this.#requests = requests
  }

  wait(n: number, timeoutMs: number | undefined): Promise<RecordedRequest> {
    const present = this.#requests[n]
    if (present) return Promise.resolve(present)
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.#waiting.splice(this.#waiting.indexOf(waiter), 1)
              reject(new Error(`${this.#label}: request #${n} did not arrive within ${timeoutMs} ms (${this.#requests.length} arrived)`))
            }, timeoutMs)
      const waiter = {
        n,
        settle(request: RecordedRequest) {
          clearTimeout(timer)
          resolve(request)
        },
      }
      this.#waiting.push(waiter)
    })
  }

  arrived(request: RecordedRequest): void {
    for (const waiter of this.#waiting.filter((candidate) => candidate.n === request.n)) {
      this.#waiting.splice(this.#waiting.indexOf(waiter), 1)
      waiter.settle(request)
    }
  }
}
