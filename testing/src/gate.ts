/** A promise a test settles when it chooses: a reply `heldUntil: gate.opened` waits until `gate.open()`. */
export interface Gate {
  readonly opened: Promise<void>
  open(): void
}

export function gate(): Gate {
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}
