import { execFile, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { createDb } from '../db'
import { auditWallets } from '../services/wallet-audit'
import { runOperator, runOperatorWith } from '../test/cli'
import { createPgDatabase, describeEachDatabase, testConfig } from '../test/context'
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

/** The PostgreSQL backup commands exactly as the README gives them. */
function readmeCommands(): { dump: string; restore: string } {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
  const command = (tool: string) => {
    const found = new RegExp('`(' + tool + ' [^`]+)`').exec(readme)?.[1]
    if (!found) throw new Error(`README.md gives no ${tool} command`)
    return found
  }
  return { dump: command('pg_dump'), restore: command('pg_restore') }
}

const hasPgTools = ['pg_dump', 'pg_restore'].every(
  (tool) => spawnSync(tool, ['--version']).status === 0,
)

if (!hasPgTools)
  describe.skip('pg_dump and pg_restore (needs pg_dump and pg_restore on PATH)', () =>
    it.skip('restores a dump'))
else
  describeEachDatabase(
    "pg_dump and pg_restore, the README's commands",
    (ctx) => {
      it('dump while orders run; the restore into a new database audits clean and serves', async () => {
        const { token, user } = await customer(ctx, { balance: '1000' })
        const pkg = await packageId(ctx, 27, 'iTunes $5')
        const { dump, restore } = readmeCommands()
        const work = mkdtempSync(join(dir, 'pg-'))
        const fresh = await createPgDatabase(process.env.TEST_DATABASE_URL!, 'store_restore')
        const shell = (command: string) =>
          new Promise<void>((resolve, reject) =>
            execFile(
              'bash',
              ['-c', command],
              {
                cwd: work,
                env: {
                  PATH: process.env.PATH,
                  DATABASE_URL: ctx.config.databaseUrl,
                  NEW_DATABASE_URL: fresh.url,
                },
              },
              (err, _stdout, stderr) =>
                err ? reject(new Error(`${command}: ${stderr}`)) : resolve(),
            ),
          )
        const copy = createDb({ databaseUrl: fresh.url, sqlitePath: '' })
        try {
          // 40 orders from 4 clients, the dump taken in the middle of them.
          const orders = Promise.all(
            Array.from({ length: 4 }, async () => {
              for (let i = 0; i < 10; i++)
                expect((await order(ctx.app, token, { package_id: pkg })).status).toBe(200)
            }),
          )
          const placed = (db = ctx.db) =>
            db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()
          while ((await placed()).length < 5) await new Promise((r) => setTimeout(r, 2))
          await shell(dump)
          await orders
          await shell(restore)

          const audit = await runOperator({ ...ctx, db: copy.db }, 'wallet:audit')
          expect(audit.stderr).toBe('')
          expect(audit.stdout).toMatch(/^OK: \d+ wallets/)
          expect(audit.code).toBe(0)
          const kept = (await placed(copy.db)).length
          expect(kept).toBeGreaterThanOrEqual(5)
          expect(kept).toBeLessThanOrEqual(40)
          // The restored store serves, and takes new orders (its id sequences came along).
          const app = createApp({ db: copy.db, config: { ...ctx.config, databaseUrl: fresh.url } })
          expect((await app.request('/readyz')).status).toBe(200)
          const more = await order(app, token, { package_id: pkg })
          expect(more.status, await more.clone().text()).toBe(200)
          expect((await placed(copy.db)).length).toBe(kept + 1)
          expect((await auditWallets(copy.db)).problems).toEqual([])
        } finally {
          await copy.destroy()
          await fresh.drop()
        }
      })
    },
    { only: ['postgres'] },
  )
