import { randomBytes, randomUUID } from 'node:crypto'
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import pLimit from 'p-limit'
import { afterAll, describe, expect, it } from 'vitest'
import { toMicros } from '../src/domain/money'
import { createPgDatabase, testConfig } from './test/context'
import { customerIn, packageId } from './test/orders'
import { startServer, type ServerProcess } from './test/server-process'
import { createDb, type Db } from './db'
import { auditWallets } from './services/wallet-audit'

/*
 * Crash safety of the ledger: the real server is killed while orders stream in, then the
 * database is opened again. Every order must have its debit line and every debit line its
 * order, the balance must be the start less the orders, every order the client saw succeed
 * must be there, a retry of a request whose answer was lost must not pay twice, and
 * `wallet:audit` must find nothing wrong.
 *
 * Two kinds of crash. SIGKILL (both databases): the process dies, the operating system keeps
 * everything it wrote. A power cut (SQLite): the server runs under strace, which writes down
 * every write to the database's files and every flush; after the kill, the files are copied
 * and every byte range written since that file's last completed flush is overwritten with
 * zeros, as a disk may hold anything, or nothing, of what was not flushed. With the default
 * SQLITE_SYNCHRONOUS=FULL no acknowledged order may be missing from that copy; with NORMAL
 * some are (which shows that the model can fail).
 */

const tmp = mkdtempSync(join(tmpdir(), 'store-crash-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The system calls that write or flush a file; SQLite writes with pwrite64 and flushes with fsync. */
const TRACED = 'pwrite64,pwritev,pwritev2,write,writev,fsync,fdatasync'

interface Target {
  name: string
  create(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>
}

const sqliteTarget = (synchronous = 'FULL'): Target => ({
  name: 'sqlite',
  create: async () => ({
    env: {
      SQLITE_PATH: join(tmp, `crash-${randomBytes(4).toString('hex')}.db`),
      SQLITE_SYNCHRONOUS: synchronous,
    },
    drop: async () => {},
  }),
})

const targets: Target[] = [sqliteTarget()]
const pgUrl = process.env.TEST_DATABASE_URL
if (pgUrl) {
  targets.push({
    name: 'postgres',
    async create() {
      const { url, drop } = await createPgDatabase(pgUrl, 'store_crash')
      return { env: { DATABASE_URL: url }, drop }
    },
  })
}

interface Attempt {
  key: string
  status: number | 'lost'
  /** Why a lost one was: what fetch threw, and its cause. */
  error?: string
  orderId?: number
  retryAfter?: string | null
}

const START = toMicros('100000')
/** iTunes $5 of the demo catalogue: 5.25 + 3 %. */
const PRICE = 5_407_500n

/** A customer with START in the wallet (a credit with its line), a session and a package. */
async function buyer(store: Db) {
  const { user, token } = await customerIn(store.db, START, 'crash')
  const pkg = { id: await packageId(store, 27, 'iTunes $5') }
  const send = async (base: string, key: string): Promise<Attempt> => {
    const form = new FormData()
    form.append('package_id', String(pkg.id))
    form.append('quantity', '1')
    try {
      const res = await fetch(`${base}/api/automated/get/packages`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': key },
      })
      const body = (await res.json()) as { data?: { id: number } }
      return {
        key,
        status: res.status,
        orderId: body.data?.id,
        retryAfter: res.headers.get('retry-after'),
      }
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause
      return { key, status: 'lost', error: `${String(err)}: ${String(cause)}` }
    }
  }
  return { user, send }
}

/** Orders from 8 clients; the server is killed once `answered` of them have been answered. */
async function ordersUntilKilled(
  server: ServerProcess,
  send: (base: string, key: string) => Promise<Attempt>,
  answered: number,
): Promise<Attempt[]> {
  const attempts: Attempt[] = []
  let stop = false
  const killed = (async () => {
    while (attempts.filter((a) => a.status === 200).length < answered) {
      await new Promise((r) => setTimeout(r, 5))
    }
    server.kill()
    stop = true
  })()
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (!stop) {
        const attempt = await send(server.url, randomUUID())
        attempts.push(attempt)
        if (attempt.status === 'lost') break
      }
    }),
  )
  await killed
  await server.exited
  expect(attempts.filter((a) => a.status !== 200 && a.status !== 'lost')).toEqual([])
  return attempts
}

/** The user's orders, debit lines and balance hold together; returns the order ids. */
async function ledgerHolds(store: Db, userId: number): Promise<Set<number>> {
  const orders = await store.db
    .selectFrom('orders')
    .select(['id', 'total_price'])
    .where('user_id', '=', userId)
    .execute()
  const debits = await store.db
    .selectFrom('wallet_logs')
    .select(['name', 'value'])
    .where('user_id', '=', userId)
    .where('status', '=', 'Discounted')
    .execute()
  const keys = await store.db
    .selectFrom('idempotency_keys')
    .select(['key', 'order_id'])
    .where('user_id', '=', userId)
    .execute()
  const orderIds = new Set(orders.map((o) => o.id))
  const debitIds = debits.map((d) => Number(/^Order #(\d+):/.exec(d.name)?.[1]))
  expect(new Set(debitIds)).toEqual(orderIds)
  expect(debitIds).toHaveLength(orders.length)
  expect(new Set(keys.map((k) => k.order_id))).toEqual(orderIds)
  expect(keys).toHaveLength(orders.length)
  const total = orders.reduce((sum, o) => sum + o.total_price, 0n)
  expect(total).toBe(BigInt(orders.length) * PRICE)
  const { balance } = await store.db
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  expect(balance).toBe(START - total)
  expect((await auditWallets(store.db)).problems).toEqual([])
  return orderIds
}

const acknowledged = (attempts: Attempt[]) =>
  new Set(attempts.filter((a) => a.status === 200).map((a) => a.orderId!))

describe('orders survive SIGKILL', () => {
  for (const target of targets) {
    it(
      `keeps every order and its debit together [${target.name}]`,
      { timeout: 120_000 },
      async () => {
        const { env, drop } = await target.create()
        let server = await startServer(env)
        const store = createDb(
          testConfig({
            databaseUrl: env.DATABASE_URL || undefined,
            sqlitePath: env.SQLITE_PATH ?? '',
          }),
        )
        try {
          const { user, send } = await buyer(store)
          const attempts = await ordersUntilKilled(server, send, 120)
          const lost = attempts.filter((a) => a.status === 'lost')

          // Same database, new process: it starts, and retries of the lost requests are safe.
          server = await startServer(env)
          const retried = await Promise.all(lost.map((a) => send(server.url, a.key)))
          expect(retried.map((a) => a.status)).toEqual(lost.map(() => 200))
          const again = await Promise.all(lost.map((a) => send(server.url, a.key)))
          expect(again.map((a) => a.orderId)).toEqual(retried.map((a) => a.orderId))

          const orderIds = await ledgerHolds(store, user.id)
          // Every order the client saw placed is there, and nothing else.
          expect(acknowledged([...attempts, ...retried])).toEqual(orderIds)
          expect(orderIds.size).toBeGreaterThanOrEqual(120)
        } finally {
          server.child.kill('SIGTERM')
          await server.exited
          await store.destroy()
          await drop()
        }
      },
    )
  }
})

describe('orders survive SIGTERM', () => {
  for (const target of targets) {
    it(
      `answers or refuses every order in flight, each answered one paid once [${target.name}]`,
      { timeout: 120_000 },
      async () => {
        const { env, drop } = await target.create()
        const server = await startServer(env)
        const store = createDb(
          testConfig({
            databaseUrl: env.DATABASE_URL || undefined,
            sqlitePath: env.SQLITE_PATH ?? '',
          }),
        )
        try {
          const { user, send } = await buyer(store)
          // 500 orders at once, each on its own connection; SIGTERM once 30 are answered.
          const attempts: Attempt[] = []
          const sent = Promise.all(
            Array.from({ length: 500 }, async () => {
              const attempt = await send(server.url, randomUUID())
              attempts.push(attempt)
            }),
          )
          while (attempts.filter((a) => a.status === 200).length < 30)
            await new Promise((r) => setTimeout(r, 2))
          server.child.kill('SIGTERM')
          await sent
          // A clean stop: the requests in flight were answered before the exit.
          expect(await server.exited).toBe(0)
          // Each was answered 200 or never taken (its connection refused): no 5xx, no cut reply.
          expect(attempts.filter((a) => a.status !== 200 && a.status !== 'lost')).toEqual([])
          const answered = acknowledged(attempts)
          expect(answered.size).toBeGreaterThan(30)
          const orderIds = await ledgerHolds(store, user.id)
          // Every answered order is there with its debit, and nothing unanswered was done.
          expect(orderIds).toEqual(answered)
        } finally {
          server.child.kill('SIGKILL')
          await store.destroy()
          await drop()
        }
      },
    )
  }
})

describe.skipIf(!pgUrl)('orders survive PostgreSQL cutting its connections', () => {
  it(
    'answers 503 with Retry-After during the gap, loses nothing acknowledged and recovers by itself',
    { timeout: 120_000 },
    async () => {
      const { env, drop } = await targets.find((t) => t.name === 'postgres')!.create()
      const name = new URL(env.DATABASE_URL!).pathname.slice(1)
      const server = await startServer(env)
      const store = createDb(testConfig({ databaseUrl: env.DATABASE_URL }))
      const admin = new pg.Client({ connectionString: pgUrl })
      await admin.connect()
      const allow = (on: boolean) =>
        admin.query(`alter database "${name}" with allow_connections ${on}`)
      try {
        const { user, send } = await buyer(store)
        // Orders from 8 clients; meanwhile, 4 times, PostgreSQL takes no new connection and
        // cuts every open one, for half a second.
        const attempts: Attempt[] = []
        let stop = false
        const clients = Promise.all(
          Array.from({ length: 8 }, async () => {
            while (!stop) attempts.push(await send(server.url, randomUUID()))
          }),
        )
        for (let cut = 0; cut < 4; cut++) {
          await new Promise((r) => setTimeout(r, 400))
          await allow(false)
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
            [name],
          )
          await new Promise((r) => setTimeout(r, 500))
          await allow(true)
        }
        await new Promise((r) => setTimeout(r, 400))
        stop = true
        await clients

        // Each answered: placed, or 503 saying when to try again; never a 500 or a cut reply.
        const refused = attempts.filter((a) => a.status === 503)
        expect(attempts.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([])
        expect(refused.length).toBeGreaterThan(0)
        expect(refused.filter((a) => !(Number(a.retryAfter) >= 1))).toEqual([])
        // By itself (no restart), the store takes orders again; a refused one, sent again with
        // its key by the same 8 clients, is placed (or, when its commit had gone through,
        // answered as placed).
        const client = pLimit(8)
        const retried = await Promise.all(refused.map((a) => client(() => send(server.url, a.key))))
        expect(retried.map((a) => a.error ?? a.status)).toEqual(refused.map(() => 200))
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200)

        const orderIds = await ledgerHolds(store, user.id)
        // Every order acknowledged is there with its debit, and nothing else.
        expect(acknowledged([...attempts, ...retried])).toEqual(orderIds)
        expect(orderIds.size).toBeGreaterThan(refused.length)
      } finally {
        await allow(true)
        await admin.end()
        server.child.kill('SIGKILL')
        await store.destroy()
        await drop()
      }
    },
  )
})

/** One write or flush of a database file, in the order strace saw it end. */
type FileEvent =
  { kind: 'write'; file: string; offset: number; length: number } | { kind: 'flush'; file: string }

/**
 * The writes and completed flushes of files whose path starts with `prefix`, from strace's
 * log. A call that did not end before the kill counts as a write (it may have reached the
 * disk or not) and never as a flush.
 */
function fileEvents(log: string, prefix: string): { events: FileEvent[]; unmodelled: string[] } {
  const events: FileEvent[] = []
  const unmodelled: string[] = []
  const started = new Map<string, { call: string; file: string; args: string }>()
  const call = /^(\d+)\s+(\w+)\((\d+)<([^>]+)>(.*)$/
  const resumed = /^(\d+)\s+<\.\.\. (\w+) resumed>.*\)\s+=\s+(-?\d+)/
  const record = (name: string, file: string, args: string, result: number | undefined) => {
    if (!file.startsWith(prefix)) return
    if (name === 'fsync' || name === 'fdatasync') {
      if (result === 0) events.push({ kind: 'flush', file })
    } else if (name === 'pwrite64') {
      const m = /, (\d+), (\d+)\)?/.exec(args)
      if (!m) throw new Error(`unreadable pwrite64 arguments: ${args}`)
      events.push({ kind: 'write', file, length: Number(m[1]), offset: Number(m[2]) })
    } else unmodelled.push(`${name} ${file}`)
  }
  for (const line of log.split('\n')) {
    const head = call.exec(line)
    if (head) {
      const [, pid, name, , file, rest] = head as unknown as string[]
      if (rest!.includes('<unfinished ...>')) {
        started.set(pid!, { call: name!, file: file!.replace(/ \(deleted\)$/, ''), args: rest! })
        // A write that never ends may still have reached the disk: counted now.
        if (name === 'pwrite64') record(name, file!, rest!, undefined)
        continue
      }
      const result = /\)\s+=\s+(-?\d+)/.exec(rest!)
      record(name!, file!.replace(/ \(deleted\)$/, ''), rest!, result ? Number(result[1]) : 0)
      continue
    }
    const end = resumed.exec(line)
    if (end) {
      const begun = started.get(end[1]!)
      started.delete(end[1]!)
      if (begun && begun.call !== 'pwrite64')
        record(begun.call, begun.file, begun.args, Number(end[3]))
    }
  }
  return { events, unmodelled }
}

/**
 * Copies the database's files as a power cut at the kill would leave them: every range written
 * after that file's last completed flush is overwritten with zeros. The shared-memory index is
 * left behind, as it is after a reboot.
 */
function afterPowerCut(path: string, log: string, into: string): number {
  const { events, unmodelled } = fileEvents(log, path)
  expect(unmodelled).toEqual([])
  let zeroed = 0
  for (const suffix of ['', '-wal']) {
    const file = `${path}${suffix}`
    if (!existsSync(file)) continue
    copyFileSync(file, `${into}${suffix}`)
    const mine = events.filter((e) => e.file === file)
    const lastFlush = mine.findLastIndex((e) => e.kind === 'flush')
    const fd = openSync(`${into}${suffix}`, 'r+')
    try {
      for (const e of mine.slice(lastFlush + 1)) {
        if (e.kind !== 'write') continue
        writeSync(fd, Buffer.alloc(e.length), 0, e.length, e.offset)
        zeroed += e.length
      }
    } finally {
      closeSync(fd)
    }
  }
  return zeroed
}

/**
 * Orders sent to a server under strace until `answered` are acknowledged, then the power cut:
 * the orders acknowledged that the copy of the database after it lacks, and how many written
 * byte ranges the cut undid.
 */
async function powerCut(synchronous: 'FULL' | 'NORMAL', answered: number) {
  const { env } = await sqliteTarget(synchronous).create()
  const path = env.SQLITE_PATH!
  // Once without strace: the database made and filled with the demo, on disk.
  const first = await startServer(env)
  first.child.kill('SIGTERM')
  await first.exited
  const setup = createDb({ databaseUrl: undefined, sqlitePath: path })
  const { user, send } = await buyer(setup)
  await setup.destroy()

  const trace = join(tmp, `trace-${randomBytes(4).toString('hex')}.log`)
  const server = await startServer(env, {
    wrap: ['strace', '-f', '-qq', '-y', '-s', '0', '-e', `trace=${TRACED}`, '-o', trace],
  })
  const attempts = await ordersUntilKilled(server, send, answered)

  const copy = join(tmp, `power-cut-${randomBytes(4).toString('hex')}.db`)
  const zeroed = afterPowerCut(path, readFileSync(trace, 'utf8'), copy)
  const store = createDb({ databaseUrl: undefined, sqlitePath: copy })
  try {
    const orderIds = await ledgerHolds(store, user.id)
    return { zeroed, missing: [...acknowledged(attempts)].filter((id) => !orderIds.has(id)) }
  } finally {
    await store.destroy()
  }
}

describe('orders survive a power cut (SQLite)', () => {
  it('SQLITE_SYNCHRONOUS=FULL: no acknowledged order is lost', { timeout: 180_000 }, async () => {
    expect((await powerCut('FULL', 60)).missing).toEqual([])
  })

  it('SQLITE_SYNCHRONOUS=NORMAL: acknowledged orders are lost', { timeout: 360_000 }, async () => {
    // The model can fail: with NORMAL a commit is flushed only by the next checkpoint (every
    // 100 ms), so a cut loses the orders acknowledged since. A checkpoint may fall between
    // the last answer and the cut on a slow machine: up to three cuts to show one loss.
    let shown = false
    for (let cut = 0; cut < 3 && !shown; cut++) {
      const { zeroed, missing } = await powerCut('NORMAL', 60)
      shown = zeroed > 0 && missing.length > 0
    }
    expect(shown).toBe(true)
  })
})
