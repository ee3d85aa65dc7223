import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CodeCheckReplySchema, TokenReplySchema } from '../src/contract/auth'
import { UsdtPaymentReplySchema } from '../src/contract/wallet'
import { microsText, toMicros } from '../src/domain/money'
import { FakeBsc, MICRO, STORE } from './adapters/chains/fake-bsc'
import { TestClock } from './clock'
import { createDb, type Db } from './db'
import { inTransaction } from './db/transaction'
import { notify } from './services/notifications'
import { createSession } from './services/sessions'
import { auditWallets } from './services/wallet-audit'
import { freshUser, wrongCode, type Fields } from './test/accounts'
import { createPgDatabase, testConfig, type TestContext } from './test/context'
import { balanceOf, customer, packageId } from './test/orders'
import { startServer, type ServerProcess } from './test/server-process'

/*
 * Two server processes on one PostgreSQL database, as behind a load balancer: everything that
 * must happen once, or be counted once, holds across both (README, Hosting). One pair of
 * servers serves every test here.
 */

const pgUrl = process.env.TEST_DATABASE_URL
/** iTunes $5 of the demo catalogue: 5.25 + 3 %. */
const PRICE = 5_407_500n
const METRICS_TOKEN = 'metrics-secret-of-at-least-32-characters'

describe.skipIf(!pgUrl)('two servers on one PostgreSQL database', () => {
  let servers: [ServerProcess, ServerProcess]
  let store: Db
  let drop: () => Promise<void>
  let chain: FakeBsc
  let receipts: string
  /** A server's settings; `name` is the path its USDT watcher asks the fake node on. */
  let env: (name: string) => Record<string, string>
  /** The services' view of the same database, for making customers and reading the ledger. */
  const ctx = { clock: new TestClock() } as TestContext

  beforeAll(async () => {
    const database = await createPgDatabase(pgUrl!, 'store_multi')
    drop = database.drop
    receipts = mkdtempSync(join(tmpdir(), 'store-multi-'))
    chain = await new FakeBsc().start()
    env = (name: string) => ({
      DATABASE_URL: database.url,
      DEV_OUTBOX: '1',
      RECEIPTS_DIR: receipts,
      PASSWORD_HASH_COST: '10',
      CODE_RESEND_SECONDS: '1',
      PUSH_POLL_MS: '100',
      USDT_POLL_SECONDS: '3',
      USDT_BEP20_ADDRESS: STORE,
      // Each server's watcher asks on a path of its own, so the node sees who read what.
      BSC_RPC_URL: `${chain.node.url}/rpc/${name}`,
      BSC_CONFIRMATIONS: '1',
      METRICS_TOKEN,
    })
    // Started together on an empty database: both migrate and load the demo, once.
    servers = await Promise.all([startServer(env('a')), startServer(env('b'))])
    const config = testConfig({ databaseUrl: database.url })
    store = createDb(config)
    Object.assign(ctx, { db: store.db, config, dialect: 'postgres' })
  }, 90_000)

  afterAll(async () => {
    for (const server of servers ?? []) server.child.kill('SIGTERM')
    await Promise.all((servers ?? []).map((s) => s.exited))
    await store?.destroy()
    await chain?.node.close()
    await drop?.()
    rmSync(receipts, { recursive: true, force: true })
  })

  /** A form posted to one of the servers, as a script sends it. */
  function post(
    server: ServerProcess,
    path: string,
    fields: Fields,
    headers: Record<string, string> = {},
  ) {
    const form = new FormData()
    for (const [k, value] of Object.entries(fields)) if (value !== undefined) form.append(k, value)
    return fetch(`${server.url}/api/${path}`, {
      method: 'POST',
      body: form,
      headers: { 'x-requested-with': 'test', ...headers },
    })
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  /** The latest code sent to `to`, read through the given server's development outbox. */
  async function codeFor(server: ServerProcess, to: string) {
    const res = await fetch(`${server.url}/api/dev/outbox?to=${encodeURIComponent(to)}`)
    const { data } = (await res.json()) as { data: { code: string }[] }
    return data[0]!.code
  }
  const buy = (server: ServerProcess, token: string, key: string, pkg: string) =>
    post(
      server,
      'automated/get/packages',
      { package_id: pkg },
      {
        ...bearer(token),
        'Idempotency-Key': key,
      },
    )
  const both = <T>(n: number, f: (server: ServerProcess, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => f(servers[i % 2]!, i)))

  it('started both on the empty database: migrated and loaded the demo once', async () => {
    const { count } = await store.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('username', '=', 'demo')
      .executeTakeFirstOrThrow()
    expect(Number(count)).toBe(1)
    for (const server of servers) expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
  })

  it('200 parallel orders split across both, on a balance for 50: exactly 50', async () => {
    const card = await packageId(ctx, 27, 'iTunes $5')
    const buyer = await customer(ctx, { balance: microsText(PRICE * 50n) })
    const replies = await both(200, (server) => buy(server, buyer.token, randomUUID(), card))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(50)
    expect(new Set(statuses.filter((s) => s !== 200))).toEqual(new Set([422]))
    expect(await balanceOf(ctx, buyer.user.id)).toBe(0n)
    const orders = await store.db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', buyer.user.id)
      .execute()
    expect(orders).toHaveLength(50)
    expect((await auditWallets(store.db)).problems).toEqual([])
    // Each reports its pool: connections busy and idle, queries waiting for one.
    for (const server of servers) {
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
      const text = await res.text()
      for (const state of ['busy', 'idle', 'waiting'])
        expect(text).toMatch(new RegExp(`^db_pool_clients\\{state="${state}"\\} \\d+$`, 'm'))
    }
  })

  it('one Idempotency-Key sent to both at once places and debits one order', async () => {
    const card = await packageId(ctx, 27, 'iTunes $5')
    const buyer = await customer(ctx, { balance: '100' })
    const key = randomUUID()
    const replies = await both(10, (server) => buy(server, buyer.token, key, card))
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
    const ids = await Promise.all(
      replies.map(async (r) => ((await r.json()) as { data: { id: number } }).data.id),
    )
    expect(new Set(ids).size).toBe(1)
    expect(await balanceOf(ctx, buyer.user.id)).toBe(toMicros('100') - PRICE)
    expect((await auditWallets(store.db)).problems).toEqual([])
  })

  it('a code sent through one server is checked through the other', async () => {
    const [a, b] = servers
    const user = { ...freshUser(), phone_number: `+9617${String(Date.now()).slice(-6)}` }
    expect((await post(a, 'signup?validate=1', user)).status).toBe(200)
    const signup = await post(b, 'signup?auth=1', {
      ...user,
      verification_code: await codeFor(b, user.phone_number),
    })
    expect(signup.status, await signup.clone().text()).toBe(200)
    v.parse(TokenReplySchema, await signup.json())

    await new Promise((r) => setTimeout(r, 1100)) // CODE_RESEND_SECONDS
    const creds = { username: user.username, password: user.password }
    expect((await post(b, 'login?check=1', creds)).status).toBe(200)
    const login = await post(a, 'login?auth=1', {
      ...creds,
      verification_code: await codeFor(a, user.phone_number),
    })
    expect(login.status, await login.clone().text()).toBe(200)
    const { token } = v.parse(TokenReplySchema, await login.json())
    expect((await fetch(`${b.url}/api/profile`, { headers: bearer(token) })).status).toBe(200)
  })

  it("holds the 4-digit code's wrong-try limits across both", async () => {
    const [a, b] = servers
    const { user } = await customer(ctx)
    const email = user.email!
    const send = (server: ServerProcess) =>
      post(server, 'send/verification-code?local=en', { email })
    const check = (server: ServerProcess, code: string) =>
      post(server, 'check/verification-code?local=en', { email, verification_code: code })
    const valid = async (res: Response) =>
      v.parse(CodeCheckReplySchema, await res.json()).data.is_valid

    // Five wrong tries a code survives, counted on both: the sixth, wherever it lands, kills it.
    expect((await send(a)).status).toBe(200)
    const first = await codeFor(a, email)
    const wrong = await both(6, (server) => check(server, wrongCode(first)))
    expect(await Promise.all(wrong.map(valid))).toEqual(wrong.map(() => false))
    expect(await valid(await check(b, first))).toBe(false)

    // Ten wrong codes an hour from one address, counted on both: a flood stops at ten.
    await new Promise((r) => setTimeout(r, 1100)) // CODE_RESEND_SECONDS
    expect((await send(b)).status).toBe(200)
    const second = await codeFor(b, email)
    const flood = await both(20, (server) => check(server, wrongCode(second)))
    const answered = flood.map((r) => r.status)
    expect(answered.filter((s) => s !== 200 && s !== 429)).toEqual([])
    const failures = await store.db
      .selectFrom('auth_failures')
      .select('id')
      .where('kind', '=', 'code')
      .where('identity', '=', email)
      .execute()
    expect(failures).toHaveLength(10)
    expect((await check(a, second)).status).toBe(429)
  })

  it('one USDT transfer seen by both watchers credits once', async () => {
    const buyer = await customer(ctx, { balance: '0' })
    const res = await post(
      servers[0],
      'wallet/request-payment',
      { amount: '10', network: 'bep20' },
      bearer(buyer.token),
    )
    expect(res.status, await res.clone().text()).toBe(200)
    const payment = v.parse(UsdtPaymentReplySchema, await res.json())
    expect(payment.wallet_address).toBe(STORE)

    // Mined now, after the request, in a block neither watcher has read yet.
    chain.timestamp = () => Math.ceil(Date.now() / 1000) + 1
    chain.head += 10
    const block = chain.head - 2
    chain.logs.push({ tx: 77, block, logIndex: 0, value: toMicros(payment.unique_amount) * MICRO })
    // Each watcher's read of that block is answered once both have asked: both see the transfer.
    const asked = new Set<string>()
    /** Watchers that began another round since: the one that read the block is over. */
    const roundOver = new Set<string>()
    chain.before = async (req) => {
      const { method, params } = req.body as { method: string; params: Record<string, string>[] }
      if (method === 'eth_blockNumber' && asked.has(req.path)) roundOver.add(req.path)
      if (method !== 'eth_getLogs') return
      const { fromBlock, toBlock } = params[0]!
      if (Number(fromBlock) > block || Number(toBlock) < block) return
      asked.add(req.path)
      const until = Date.now() + 10_000
      while (asked.size < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    }
    await expect
      .poll(
        async () =>
          (
            await store.db
              .selectFrom('usdt_requests')
              .select('status')
              .where('id', '=', payment.payment_id)
              .executeTakeFirstOrThrow()
          ).status,
        { timeout: 20_000 },
      )
      .toBe('PAID')
    await expect.poll(() => roundOver.size, { timeout: 10_000 }).toBe(2)
    chain.before = undefined
    const transfers = await store.db.selectFrom('usdt_transfers').select('outcome').execute()
    expect(asked).toEqual(new Set(['/rpc/a', '/rpc/b']))
    expect(transfers).toEqual([{ outcome: 'CREDITED' }])
    expect(await balanceOf(ctx, buyer.user.id)).toBe(toMicros(payment.credited_amount))
    expect((await auditWallets(store.db)).problems).toEqual([])
  })

  it('each push job is sent once', async () => {
    const { user } = await customer(ctx)
    await createSession(store.db, user.id, { fcmToken: `device-${user.id}`, now: new Date() })
    const jobs = 60
    await inTransaction(store.db, async (trx) => {
      for (let i = 0; i < jobs; i++)
        await notify(
          trx,
          user,
          { message: 'charge_canceled', values: { id: i, reason: 'test' } },
          new Date(),
        )
    })
    const pending = () =>
      store.db
        .selectFrom('push_jobs')
        .select('id')
        .where('user_id', '=', user.id)
        .where('done_at', 'is', null)
        .execute()
    await expect.poll(async () => (await pending()).length, { timeout: 20_000 }).toBe(0)
    const sent = await store.db
      .selectFrom('push_outbox')
      .select('message')
      .where('user_id', '=', user.id)
      .execute()
    expect(sent).toHaveLength(jobs)
    expect(new Set(sent.map((s) => s.message)).size).toBe(jobs)
  })
  it('INSTANCES=2: two server processes on one port, one that dies replaced, SIGTERM stops all', async () => {
    const cluster = await startServer({ ...env('c'), INSTANCES: '2' })
    const workers = () =>
      readFileSync(`/proc/${cluster.child.pid}/task/${cluster.child.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
    try {
      await expect.poll(() => workers().length, { timeout: 30_000 }).toBe(2)
      const card = await packageId(ctx, 27, 'iTunes $5')
      const buyer = await customer(ctx, { balance: '100' })
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => buy(cluster, buyer.token, randomUUID(), card)),
      )
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
      expect(await balanceOf(ctx, buyer.user.id)).toBe(toMicros('100') - 10n * PRICE)

      const [victim] = workers()
      process.kill(Number(victim), 'SIGKILL')
      await expect
        .poll(() => workers().length === 2 && !workers().includes(victim!), { timeout: 30_000 })
        .toBe(true)
      expect((await fetch(`${cluster.url}/readyz`)).status).toBe(200)

      const running = workers()
      cluster.child.kill('SIGTERM')
      expect(await cluster.exited).toBe(0)
      for (const pid of running) expect(existsSync(`/proc/${pid}`)).toBe(false)
    } finally {
      cluster.child.kill('SIGKILL')
    }
  }, 90_000)
})
