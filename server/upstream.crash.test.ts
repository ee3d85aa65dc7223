import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { toMicros } from '../src/domain/money'
import { createDb } from './db'
import { addPanel, mapPackage } from './services/upstream-panels'
import { createPgDatabase, testConfig } from './test/context'
import { startFakePanel } from './test/fake-panel'
import { customerIn, packageId } from './test/orders'
import { startServer } from './test/server-process'

/*
 * Crash safety of an upstream order (docs/api.md, Upstream panels): the real server is killed
 * while its `add` is at the panel, after it wrote the attempt and before any answer. Started
 * again on the same database, it must not place the order a second time (v2 has no
 * idempotency key): the attempt becomes `unknown`, for the operator, and the panel has one add.
 */

const tmp = mkdtempSync(join(tmpdir(), 'store-upstream-crash-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const targets: {
  name: string
  create(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>
}[] = [
  {
    name: 'sqlite',
    create: async () => ({
      env: { SQLITE_PATH: join(tmp, `crash-${randomBytes(4).toString('hex')}.db`) },
      drop: async () => {},
    }),
  },
]
const pgUrl = process.env.TEST_DATABASE_URL
if (pgUrl)
  targets.push({
    name: 'postgres',
    async create() {
      const { url, drop } = await createPgDatabase(pgUrl, 'store_upcrash')
      return { env: { DATABASE_URL: url }, drop }
    },
  })

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

for (const target of targets) {
  it(
    `a server killed during an upstream add places no second order when it starts again [${target.name}]`,
    { timeout: 120_000 },
    async () => {
      const panel = await startFakePanel()
      panel.onAdd = () => 'hang'
      const { env: dbEnv, drop } = await target.create()
      const env: Record<string, string> = {
        ...dbEnv,
        UPSTREAM_POLL_MS: '100',
        UPSTREAM_TIMEOUT_MS: '1000',
      }
      let server = await startServer(env)
      const store = createDb(
        testConfig({
          databaseUrl: env.DATABASE_URL || undefined,
          sqlitePath: env.SQLITE_PATH ?? '',
        }),
      )
      try {
        const now = new Date()
        const pkg = { id: Number(await packageId(store, 27, 'iTunes $5')) }
        const panelId = await addPanel(
          store.db,
          undefined,
          { name: 'up', url: panel.url, key: panel.key },
          now,
        )
        await mapPackage(store.db, { packageId: pkg.id, panelId, service: '101' }, now)
        const { token } = await customerIn(store.db, toMicros('100'), 'upcrash')
        const form = new FormData()
        form.append('package_id', String(pkg.id))
        form.append('quantity', '1')
        const res = await fetch(`${server.url}/api/automated/get/packages`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': 'crash-1' },
        })
        // The customer's request does not wait for the panel, which has not answered.
        expect(res.status).toBe(200)
        const orderId = ((await res.json()) as { data: { id: number } }).data.id

        await until('the add to reach the panel', () => panel.adds().length === 1)
        const attempt = () =>
          store.db
            .selectFrom('upstream_orders')
            .selectAll()
            .where('order_id', '=', orderId)
            .executeTakeFirstOrThrow()
        // Written before the call went out.
        expect(await attempt()).toMatchObject({ state: 'sending', attempts: 1 })
        server.kill()
        await server.exited

        // The panel would answer now; the new process must not ask it again.
        panel.onAdd = () => ({ order: 1 })
        server = await startServer(env)
        await until(
          'the attempt to be left to the operator',
          async () => (await attempt()).state === 'unknown',
        )
        // Several more rounds (every 100 ms) send nothing.
        await new Promise((r) => setTimeout(r, 1000))
        expect(panel.adds()).toHaveLength(1)
        expect(panel.adds()[0]).toMatchObject({ action: 'add', service: '101', quantity: '1' })
        expect((await attempt()).reason).toMatch(/no answer was recorded/)
        const order = await store.db
          .selectFrom('orders')
          .select('status')
          .where('id', '=', orderId)
          .executeTakeFirstOrThrow()
        expect(order.status).toBe('WAITING')
      } finally {
        server.child.kill('SIGKILL')
        await server.exited
        await store.destroy()
        await drop()
        await panel.close()
      }
    },
  )
}
