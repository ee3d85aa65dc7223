/** Starts the real server on a fresh temporary SQLite database, for benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VISITED_COOKIE } from '../../src/api/storage-keys'

export interface RunningServer {
  url: string
  pid: number | undefined
  stop: () => Promise<void>
}

export async function startServer(
  port: number,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  // Another server there (one a benchmark left stopping) would answer for this one, which would
  // then exit unseen: every figure would be that server's.
  if (!(await portFree(port)))
    throw new Error(`Port ${port} is in use: stop what listens there, or choose another port`)
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-'))
  const child: ChildProcess = spawn('tsx', ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dir, 'store.db'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // The pages measured show the demo content and catalogue; demo data is refused in production.
      NODE_ENV: 'development',
      DEMO: '1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitForServer(child, url)
  return {
    url,
    pid: child.pid,
    stop: async () => {
      // One that has exited already (killed, crashed) has no exit left to wait for: the wait
      // would never end, and the benchmark would exit without printing what failed.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** A whole number from the environment, within bounds; anything else stops the benchmark. */
export function boundedInt(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`)
  }
  return value
}

/** Whether nothing listens on `port` (of 127.0.0.1) now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Resolves once the server answers; fails when it exits first or takes over 60 s. */
export async function waitForServer(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/website/info`)).ok) return
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('The server did not start within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The cookie of a browser that has been to `base` before, as any whose storage a script sets up
 * has: without it the page is a first visit's, whose first script does not read the storage
 * (docs/api.md, The first screen). For Playwright's `addCookies`.
 */
export const returningBrowser = (base: string) => [{ name: VISITED_COOKIE, value: '1', url: base }]

/**
 * A session of the demo customer (+961 70 000 001), signed in through the API with the code
 * the development outbox shows: the server must run with DEMO=1 and DEV_OUTBOX=1.
 */
export async function demoSession(base: string): Promise<string> {
  const form = () => {
    const body = new FormData()
    body.set('phone_number', '+96170000001')
    body.set('password', 'demo-pass-1')
    return body
  }
  // A script, not a page: the header tells the server this is no cross-site form post.
  const headers = { 'X-Requested-With': 'bench' }
  const check = await fetch(`${base}/api/login?check=1`, { method: 'POST', body: form(), headers })
  if (!check.ok) throw new Error(`demo sign-in refused: ${check.status}`)
  const outbox = await fetch(`${base}/api/dev/outbox?to=%2B96170000001`)
  const { data } = (await outbox.json()) as { data: { code: string }[] }
  const body = form()
  body.set('verification_code', data[0]?.code ?? '')
  const reply = await fetch(`${base}/api/login?auth=1`, { method: 'POST', body, headers })
  const { token } = (await reply.json()) as { token?: string }
  if (!token) throw new Error(`demo sign-in failed: ${reply.status}`)
  return token
}
