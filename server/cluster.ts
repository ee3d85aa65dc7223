import cluster, { type Worker } from 'node:cluster'
import type { Logger } from './log'

/** How long a server process that died waits before another is started (no tight crash loop). */
const RESTART_DELAY_MS = 1000

/**
 * INSTANCES=n: this process starts n server processes (node:cluster), which share the port
 * (this one hands each new connection to one of them), and watches them: one that dies is
 * replaced. SIGTERM or SIGINT is passed on to each as SIGTERM, which stops it gracefully
 * (main.ts), and this process exits once all have stopped.
 */
export function superviseWorkers(count: number, logger: Logger): void {
  const alive = new Set<Worker>()
  let stopping = false
  const start = () => alive.add(cluster.fork())
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker)
    if (!stopping) {
      logger.error('server process ended; starting another', {
        pid: worker.process.pid,
        code,
        signal,
      })
      setTimeout(() => stopping || start(), RESTART_DELAY_MS)
    } else if (alive.size === 0) {
      logger.info('stopped')
      process.exit(0)
    }
  })
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal, processes: alive.size })
    for (const worker of alive) worker.process.kill('SIGTERM')
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  for (let i = 0; i < count; i++) start()
  logger.info('starting server processes', { instances: count })
}
