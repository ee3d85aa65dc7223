/** At most this many calls go in one run; more wait for the next. */
const MAX_BATCH = 500

interface Waiter<R> {
  resolve: (result: R) => void
  reject: (error: unknown) => void
}

/**
 * The calls of one turn of the event loop, run together: `run` gets them all once the turn is
 * over (setImmediate), as one statement for all rather than one each, and gives back one
 * result per call, in order. Every caller hears back once its run has finished; when a run
 * fails, each of its callers gets the error. A call made while a run is under way waits for
 * the next run: what a run reads was read after every one of its calls was made.
 */
export class TurnBatch<T, R = void> {
  readonly #run: (items: T[]) => Promise<R[]>
  #items: T[] = []
  #waiters: Waiter<R>[] = []

  constructor(run: (items: T[]) => Promise<R[]>) {
    this.#run = run
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.#items.length === 0) setImmediate(() => void this.#flush())
      this.#items.push(item)
      this.#waiters.push({ resolve, reject })
    })
  }

  async #flush() {
    const items = this.#items
    const waiters = this.#waiters
    this.#items = []
    this.#waiters = []
    for (let i = 0; i < items.length; i += MAX_BATCH) {
      const slice = waiters.slice(i, i + MAX_BATCH)
      try {
        const results = await this.#run(items.slice(i, i + MAX_BATCH))
        slice.forEach((waiter, j) => waiter.resolve(results[j]!))
      } catch (error) {
        for (const waiter of slice) waiter.reject(error)
      }
    }
  }
}
