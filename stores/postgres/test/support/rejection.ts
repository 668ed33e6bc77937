/** What `work` rejects with; a failure of the test if it resolves. */
export async function rejection(work: Promise<unknown>): Promise<Error> {
  try {
    await work
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a rejection, but it resolved')
}
