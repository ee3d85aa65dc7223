import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createApp } from '../app'
import { createDb } from '../db'
import { auditWallets } from '../services/wallet-audit'
import { runOperatorWith } from '../test/cli'
import { describeEachDatabase, testConfig } from '../test/context'
import { customer, order, packageId } from '../test/orders'
import { pidFileOf } from './backup'

const dir = mkdtempSync(join(tmpdir(), 'store-backup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeEachDatabase(
  'backup and restore',
  (ctx) => {
    it('backs up while orders run; the copy restores into a new folder and serves', async () => {
      const { token, user } = await customer(ctx, { balance: '1000' })
      const pkg = await packageId(ctx, 27, 'iTunes $5')
      const file = join(dir, 'copies', 'store-backup.db')
      // 40 orders from 4 clients, the backup taken in the middle of them.
      const orders = Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 10; i++)
            expect((await order(ctx.app, token, { package_id: pkg })).status).toBe(200)
        }),
      )
      const placed = () =>
        ctx.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()
      while ((await placed()).length < 5) await new Promise((r) => setTimeout(r, 2))
      const backup = await runOperatorWith(ctx, {}, 'backup', file)
      await orders
      expect(backup.stderr).toBe('')
      expect(backup.code).toBe(0)
      expect(backup.stdout).toMatch(
        new RegExp(
          `^Backed up: ${file}, [\\d,]+ bytes; integrity ok; wallet:audit OK \\(\\d+ wallets\\)\\.\\n$`,
        ),
      )
      expect(backup.stdout).toContain(statSync(file).size.toLocaleString('en'))
      // Never over an existing file.
      const again = await runOperatorWith(ctx, {}, 'backup', file)
      expect(again.code).toBe(1)
      expect(again.stderr).toBe(`${file} exists: give a new file name.\n`)

      const fresh = join(dir, 'fresh', 'store.db')
      const env = { SQLITE_PATH: fresh }
      // Refused while a server runs on the target (this process plays it).
      mkdirSync(join(dir, 'fresh'))
      writeFileSync(pidFileOf(fresh), `${process.pid}\n`)
      const refused = await runOperatorWith(ctx, { env }, 'restore', file)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(
        `A server (process ${process.pid}) is running on ${fresh}: stop it first, then restore.\n`,
      )
      rmSync(pidFileOf(fresh))
      const restored = await runOperatorWith(ctx, { env }, 'restore', file)
      expect(restored.stderr).toBe('')
      expect(restored.code).toBe(0)
      expect(restored.stdout).toMatch(/^Restored .* integrity ok; wallet:audit OK/)

      const copy = createDb({ databaseUrl: undefined, sqlitePath: fresh })
      try {
        expect((await auditWallets(copy.db)).problems).toEqual([])
        // The copy holds a consistent moment: some of the orders, each with its debit.
        const kept = await copy.db
          .selectFrom('orders')
          .select('id')
          .where('user_id', '=', user.id)
          .execute()
        expect(kept.length).toBeGreaterThanOrEqual(5)
        expect(kept.length).toBeLessThanOrEqual(40)
        const app = createApp({ db: copy.db, config: testConfig({ sqlitePath: fresh }) })
        expect((await app.request('/readyz')).status).toBe(200)
        const profile = await app.request('/api/profile', {
          headers: { authorization: `Bearer ${token}` },
        })
        expect(profile.status).toBe(200)
      } finally {
        await copy.destroy()
      }
    })
  },
  { only: ['sqlite'] },
)
