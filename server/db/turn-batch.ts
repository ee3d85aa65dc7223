import { joinReads, sharedReads } from './durability'

/** At most this many calls go in one run; more wait for the next. */
const MAX_BATCH = 500

interface Ran<R> {
  result: R
  /** The flush of what the run read (db/durability.ts, durableReads). */
  durable: Promise<void> | undefined
}

interface Call<T, R> {
  item: T
  resolve: (ran: Ran<R>) => void
  reject: (error: unknown) => void
}

export interface TurnBatchOptions {
  /**
   * At most this many runs under way (default: no limit); calls made meanwhile wait, and go
   * together in the next: one statement's overhead for all of them.
   */
  maxRuns?: number
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
  #queue: Call<T, R>[] = []
  #running = 0
  #scheduled = false

  constructor(run: (items: T[]) => Promise<R[]>, options: TurnBatchOptions = {}) {
    this.#run = run
    this.#maxRuns = options.maxRuns ?? Infinity
  }

  async add(item: T): Promise<R> {
    const { result, durable } = await new Promise<Ran<R>>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject })
      this.#schedule()
    })
    // Each caller's reply waits for the flush of what the run read, not only the first's.
    await joinReads(durable)
    return result
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
    void this.#start(this.#queue.splice(0, MAX_BATCH))
    this.#schedule()
  }

  async #start(calls: Call<T, R>[]) {
    this.#running++
    try {
      const { result, durable } = await sharedReads(() => this.#run(calls.map((c) => c.item)))
      calls.forEach((call, j) => call.resolve({ result: result[j]!, durable }))
    } catch (error) {
      for (const call of calls) call.reject(error)
    } finally {
      this.#running--
      this.#schedule()
    }
  }
}
