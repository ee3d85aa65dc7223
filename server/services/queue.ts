import pLimit from 'p-limit'

/**
 * A queue in front of work that must not all run at once (password hashes, image decoding),
 * with p-limit: at most `concurrency` run, at most `waiting` wait for their turn, and past
 * that `busy()` is thrown at once (a 503 with Retry-After) rather than making everyone wait.
 */
export function boundedQueue({
  concurrency,
  waiting,
  busy,
}: {
  concurrency: number
  waiting: number
  busy: () => Error
}) {
  const limit = pLimit(concurrency)
  return <T>(fn: () => Promise<T>): Promise<T> =>
    limit.pendingCount >= waiting ? Promise.reject(busy()) : limit(fn)
}
