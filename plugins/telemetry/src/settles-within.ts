/** True once `promise` settled, false when `ms` passed first (the timer is cleared either way). */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true as const), late])
  } finally {
    clearTimeout(timer)
  }
}
