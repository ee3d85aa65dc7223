/** At most this many calls go in one run; more wait for the next. */
const MAX_BATCH = 500

interface Call<T, R> {
  item: T
  resolve: (result: R) => void
  reject: (error: unknown) => void
}

export interface TurnBatchOptions<T> {
  /**
   * At most this many runs under way (default: no limit); calls made meanwhile wait, and go
   * together in the next: one statement's overhead for all of them.
   */
  maxRuns?: number
  /**
   * For calls that lock something of their own (a wallet): calls with the same key never go in
   * one run together, nor in two runs of several calls under way at once, so two runs cannot
   * deadlock by locking two keys in opposite orders. A call whose key is taken when its run is
   * formed runs alone, at once, outside maxRuns: it locks one key, so it can wait but not
   * deadlock.
   */
  keyOf?: (item: T) => unknown
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
  readonly #maxRuns: number
  readonly #keyOf: ((item: T) => unknown) | undefined
  #queue: Call<T, R>[] = []
  readonly #busy = new Set<unknown>()
  #running = 0
  #scheduled = false

  constructor(run: (items: T[]) => Promise<R[]>, options: TurnBatchOptions<T> = {}) {
    this.#run = run
    this.#maxRuns = options.maxRuns ?? Infinity
    this.#keyOf = options.keyOf
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject })
      this.#schedule()
    })
  }

  #schedule() {
    if (this.#scheduled || this.#queue.length === 0 || this.#running >= this.#maxRuns) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#flush()
    })
  }

  #flush() {
    const together: Call<T, R>[] = []
    const alone: Call<T, R>[] = []
    const keys: unknown[] = []
    for (const call of this.#queue.splice(0, MAX_BATCH)) {
      const key = this.#keyOf?.(call.item)
      if (this.#keyOf && this.#busy.has(key)) {
        alone.push(call)
      } else {
        if (this.#keyOf) {
          this.#busy.add(key)
          keys.push(key)
        }
        together.push(call)
      }
    }
    if (together.length > 0) void this.#start(together, true, keys)
    for (const call of alone) void this.#start([call], false, [])
    this.#schedule()
  }

  /** `counted`: against maxRuns, which a lone call of a taken key is not. */
  async #start(calls: Call<T, R>[], counted: boolean, keys: unknown[]) {
    if (counted) this.#running++
    try {
      const results = await this.#run(calls.map((call) => call.item))
      calls.forEach((call, j) => call.resolve(results[j]!))
    } catch (error) {
      for (const call of calls) call.reject(error)
    } finally {
      for (const key of keys) this.#busy.delete(key)
      if (counted) this.#running--
      this.#schedule()
    }
  }
}
