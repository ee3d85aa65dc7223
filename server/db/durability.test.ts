import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { CompiledQuery } from 'kysely'
import { afterAll, expect, it, onTestFinished, vi } from 'vitest'
import { describeEachDatabase } from '../test/context'
import { customer, get, order, packageId } from '../test/orders'

/*
 * What a crash can lose on SQLite (docs/performance.md, "Durability"). The store runs in WAL
 * mode; SQLite itself flushes the WAL only at checkpoints (synchronous = NORMAL), and by default
 * (SQLITE_SYNCHRONOUS=FULL) the driver flushes it after each commit before answering, so a
 * power cut loses nothing answered (server/orders.crash.test.ts models one). With the opt-in
 * NORMAL, a power cut or an OS crash can lose the WAL's tail, the last transactions before
 * the last flush. SQLite's recovery then keeps the WAL up to its last whole commit, so whole
 * orders are lost, never half of one: this cuts the WAL at every frame and checks the ledger
 * of each copy.
 */

const dir = mkdtempSync(join(tmpdir(), 'store-durability-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeEachDatabase(
  'durability of orders on SQLite',
  (ctx) => {
    it('runs in WAL mode, SQLite itself flushing at checkpoints (synchronous = NORMAL)', () => {
      const db = new DatabaseSync(ctx.config.sqlitePath, { readOnly: true })
      try {
        expect(db.prepare('pragma journal_mode').get()).toEqual({ journal_mode: 'wal' })
      } finally {
        db.close()
      }
      // synchronous is a setting of each connection: the server's writer, through its driver.
      return expect(ctx.db.executeQuery(CompiledQuery.raw('pragma synchronous'))).resolves.toEqual({
        rows: [{ synchronous: 1 }],
      })
    })

    it('shows no order in a reply before the order is on disk', async () => {
      const { token } = await customer(ctx, { balance: '100' })
      const card = await packageId(ctx, 27, 'iTunes $5')
      // The disk holds every flush back until released.
      const probe = await open(join(dir, 'probe'), 'w')
      const handles = Object.getPrototypeOf(probe) as FileHandle
      await probe.close()
      const datasync = handles.datasync
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      const flush = vi.spyOn(handles, 'datasync').mockImplementation(async function (
        this: FileHandle,
      ) {
        await held
        return datasync.call(this)
      })
      try {
        // Another connection sees the order committed, its flush held.
        const reader = new DatabaseSync(ctx.config.sqlitePath, { readOnly: true })
        const orders = () => reader.prepare('select count(*) as n from orders').get()?.n
        const before = Number(orders())
        const placed = order(ctx.app, token, { package_id: card })
        try {
          await expect.poll(orders).toBe(before + 1)
        } finally {
          reader.close()
        }
        // The list, and two profiles (whose sessions are read together, db/turn-batch.ts),
        // asked at once: none is answered while the order's flush is held.
        const answered: string[] = []
        const ask = (path: string) =>
          Promise.resolve(get(ctx.app, path, token)).then((res) => {
            answered.push(path)
            return res
          })
        const replies = Promise.all([ask('orders'), ask('profile'), ask('profile')])
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(answered).toEqual([])
        release()
        const [list, ...profiles] = await replies
        const { data } = (await (await placed).json()) as { data: { id: number } }
        expect(((await list.json()) as { data: { id: number }[] }).data.map((o) => o.id)).toContain(
          data.id,
        )
        // Both show the balance after the order's debit.
        const balances = await Promise.all(
          profiles.map(
            async (p) => ((await p.json()) as { data: { balance: number } }).data.balance,
          ),
        )
        expect(balances[0]).toBeLessThan(100)
        expect(balances[1]).toBe(balances[0])
      } finally {
        release()
        flush.mockRestore()
      }
    })

    it('loses whole orders, never part of one, when the WAL loses its tail', async () => {
      const { token, user } = await customer(ctx, { balance: '1000' })
      const card = await packageId(ctx, 27, 'iTunes $5')
      const start = 1_000_000_000n
      // The WAL from here on holds only the orders.
      await ctx.db.executeQuery(CompiledQuery.raw('pragma wal_checkpoint(truncate)'))
      // And the database file none of them: a reader that began before them, reading the file
      // alone, keeps the checkpoint thread (db/checkpointer.ts) from copying them into it.
      const reader = new DatabaseSync(ctx.config.sqlitePath)
      reader.exec('begin')
      reader.prepare('select count(*) from users').get()
      onTestFinished(() => reader.close())
      // Together, so that some of them share a commit (db/group-commit.ts).
      const replies = await Promise.all(
        Array.from({ length: 24 }, () => order(ctx.app, token, { package_id: card })),
      )
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))

      const wal = `${ctx.config.sqlitePath}-wal`
      const walBytes = readFileSync(wal).length
      const { page_size } = (await ctx.db.executeQuery(CompiledQuery.raw('pragma page_size')))
        .rows[0] as { page_size: number }
      const frame = 24 + Number(page_size)
      const counts = new Set<number>()
      // Cut at every frame boundary and in the middle of frames, from the header on.
      for (let cut = 32; cut <= walBytes; cut += Math.floor(frame / 2)) {
        const copy = join(dir, `cut-${cut}.db`)
        copyFileSync(ctx.config.sqlitePath, copy)
        copyFileSync(wal, `${copy}-wal`)
        truncateSync(`${copy}-wal`, cut)
        const db = new DatabaseSync(copy, { readBigInts: true })
        try {
          const orders = db
            .prepare('select id, total_price from orders where user_id = ?')
            .all(user.id) as { id: bigint; total_price: bigint }[]
          const debits = db
            .prepare(
              "select name, value from wallet_logs where user_id = ? and status = 'Discounted'",
            )
            .all(user.id) as { name: string; value: bigint }[]
          const keys = db
            .prepare('select order_id from idempotency_keys where user_id = ?')
            .all(user.id) as { order_id: bigint }[]
          const { balance } = db.prepare('select balance from users where id = ?').get(user.id) as {
            balance: bigint
          }
          const ids = orders.map((o) => Number(o.id)).sort((a, b) => a - b)
          const debited = debits.map((d) => Number(/^Order #(\d+):/.exec(d.name)?.[1]))
          expect(debited.sort((a, b) => a - b)).toEqual(ids)
          expect(keys.map((k) => Number(k.order_id)).sort((a, b) => a - b)).toEqual(ids)
          const spent = orders.reduce((sum, o) => sum + o.total_price, 0n)
          expect(debits.reduce((sum, d) => sum + d.value, 0n)).toBe(spent)
          expect(balance).toBe(start - spent)
          counts.add(orders.length)
        } finally {
          db.close()
        }
      }
      // Some cuts lost orders, and the whole WAL kept them all.
      expect(Math.min(...counts)).toBeLessThan(24)
      expect(Math.max(...counts)).toBe(24)
    })
  },
  { only: ['sqlite'] },
)
