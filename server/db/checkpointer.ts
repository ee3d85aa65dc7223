import { Worker } from 'node:worker_threads'

/** How often the thread copies what the WAL holds into the database file. */
const CHECKPOINT_EVERY_MS = 100
/**
 * WAL frames (pages, 4 KiB each) past which the thread waits for a moment without readers
 * and writers to start the WAL over; under a load without pauses the WAL grows until then.
 */
const RESTART_AFTER_FRAMES = 16_384
/** How long the restart may wait for the other connections, while holding back writers. */
const RESTART_WAIT_MS = 200

/*
 * The thread's code, plain JavaScript (a worker is not compiled with the server). A PASSIVE
 * checkpoint copies the committed pages into the database file without waiting for anyone,
 * flushing the WAL before and the file after (synchronous = NORMAL), so what it copies is on
 * disk before the WAL can be reused.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
const db = new DatabaseSync(workerData.path, { timeout: ${RESTART_WAIT_MS} })
db.exec('PRAGMA synchronous = NORMAL')
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)')
const timer = setInterval(() => {
  try {
    const { log } = passive.get()
    if (log > ${RESTART_AFTER_FRAMES}) restart.get()
  } catch (err) {
    // Busy (another process checkpoints, or the restart's wait ran out): the next turn tries.
    if (![5, 6].includes(err.errcode & 0xff)) throw err
  }
}, ${CHECKPOINT_EVERY_MS})
parentPort.on('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

/**
 * Copies SQLite's WAL into the database file on a thread of its own, instead of in the commit
 * that fills the WAL past SQLite's threshold (its automatic checkpoint, which the caller turns
 * off on its write connection): that commit's request, and every other request of the event
 * loop, waited for the copy and for the database file's flush. If the thread fails, `onFail`
 * turns the automatic checkpoint back on.
 */
export class Checkpointer {
  readonly #worker: Worker
  readonly #exited: Promise<void>

  constructor(path: string, onFail: (err: unknown) => void) {
    this.#worker = new Worker(THREAD, { eval: true, workerData: { path } })
    // The thread alone does not keep the process running.
    this.#worker.unref()
    this.#worker.on('error', onFail)
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()))
  }

  /** Stops the thread, after its checkpoint in progress, and closes its connection. */
  async stop() {
    // Waited for: the process stays up until the thread has closed its connection.
    this.#worker.ref()
    this.#worker.postMessage('stop')
    await this.#exited
  }
}
