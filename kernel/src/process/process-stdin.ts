import type { Writable } from 'node:stream'
import type { ProcessStdin } from '../process-runner.js'

/** The `onStdin` handle over a child's stdin pipe. */
export function processStdin(pid: number, pipe: Writable): ProcessStdin {
  let ended = false
  const gone = () => ended || pipe.destroyed || pipe.writableEnded
  return {
    pid,
    get ended() {
      return gone()
    },
    write(chunk) {
      if (gone()) return Promise.reject(new Error('stdin is already closed'))
      return new Promise((resolve, reject) => {
        pipe.write(chunk, (error) => (error ? reject(error) : resolve()))
      })
    },
    end() {
      if (gone()) return
      ended = true
      pipe.end()
    },
  }
}
