import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { toMicros } from '../../src/domain/money'
import { createApp, type App } from '../app'
import { createDb, type Db } from '../db'
import type { CurrencyCode, Database, LocaleCode, UserRow, UserType } from '../db/schema'
import { createSession } from '../services/sessions'
import { creditWallet } from '../services/wallet'
import { insertUser } from '../services/users'
import { freshUser, postForm, type Fields } from './accounts'
import { testPasswords, type TestContext } from './context'

export interface Customer {
  token: string
  user: UserRow
}

/** The wallet line that gives a test account its starting balance (ledgerOf leaves it out). */
export const OPENING_LINE = 'Opening balance'

/**
 * A signed-in account with a balance, made through the services (no codes to wait for). The
 * balance arrives as a credit with its history line, as money does, so `wallet:audit` holds.
 */
export async function customer(
  ctx: TestContext,
  {
    balance = '100',
    type = 'CUSTOMER',
    currency = 'USD',
    locale = 'en',
  }: { balance?: string; type?: UserType; currency?: CurrencyCode; locale?: LocaleCode } = {},
): Promise<Customer> {
  const details = freshUser()
  const now = ctx.clock.now()
  const user = await insertUser(
    ctx.db,
    {
      username: details.username,
      phone_number: details.phone_number,
      email: details.email,
      password_hash: 'not-used',
      type,
      currency,
      locale,
    },
    now,
  )
  const amount = toMicros(balance)
  const opened =
    amount > 0n
      ? (
          await creditWallet(ctx.db, user.id, {
            amount,
            currency,
            name: () => OPENING_LINE,
            rate: ctx.config.lbpRate,
            now,
          })
        ).user
      : user
  const token = await createSession(ctx.db, user.id, { fcmToken: null, now })
  return { token, user: opened }
}

/**
 * A customer made straight in a database (for tests that run the server as a process): `amount`
 * credited with its history line, and a session token.
 */
export async function customerIn(db: Kysely<Database>, amount: bigint, prefix: string) {
  const now = new Date()
  const user = await insertUser(
    db,
    {
      username: `${prefix}_${randomBytes(3).toString('hex')}`,
      phone_number: `+9617199${String(randomInt(10_000)).padStart(4, '0')}`,
      email: null,
      password_hash: 'not-used',
      type: 'CUSTOMER',
      currency: 'USD',
      locale: 'en',
    },
    now,
  )
  await creditWallet(db, user.id, {
    amount,
    currency: 'USD',
    name: () => OPENING_LINE,
    rate: 89_500,
    now,
  })
  return { user, token: await createSession(db, user.id, { fcmToken: null, now }) }
}

/** The id of a demo package by its product and English name (demo/seed-catalogue.ts). */
export async function packageId(ctx: Pick<TestContext, 'db'>, productId: number, name: string) {
  const row = await ctx.db
    .selectFrom('packages')
    .select('id')
    .where('product_id', '=', productId)
    .where('name_en', '=', name)
    .executeTakeFirstOrThrow()
  return String(row.id)
}

/**
 * Sets a package's company price (micro-units) behind the server's back, as the operator CLI
 * or a maintenance shell would; returns the price it had, to be set back.
 */
export async function setPackagePrice(ctx: TestContext, id: string, price: number) {
  const { company_price } = await ctx.db
    .selectFrom('packages')
    .select('company_price')
    .where('id', '=', Number(id))
    .executeTakeFirstOrThrow()
  await ctx.db
    .updateTable('packages')
    .set({ company_price: price })
    .where('id', '=', Number(id))
    .execute()
  return company_price
}

/**
 * Two apps over the test database: on PostgreSQL the second has a connection pool of its own,
 * as a second server instance would; on SQLite both are the one app.
 */
export function twoServers(ctx: TestContext): { apps: App[]; close: () => Promise<void> } {
  const other: Db | undefined = ctx.dialect === 'postgres' ? createDb(ctx.config) : undefined
  const second = other
    ? createApp({ db: other.db, config: ctx.config, clock: ctx.clock, passwords: testPasswords })
    : ctx.app
  return { apps: [ctx.app, second], close: async () => other?.destroy() }
}

/** POST automated/get/packages as the storefront sends it, with a fresh key unless given. */
export function order(
  app: App,
  token: string,
  fields: Fields,
  { key = randomUUID(), query = '' }: { key?: string | null; query?: string } = {},
) {
  return postForm(app, `automated/get/packages${query}`, fields, {
    token,
    headers: key === null ? {} : { 'Idempotency-Key': key },
  })
}

export function get(app: App, path: string, token?: string) {
  return app.request(`/api/${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
}

export async function balanceOf(ctx: TestContext, userId: number): Promise<bigint> {
  const row = await ctx.db
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return row.balance
}

/**
 * The ledger of a user: orders, their debit lines and refunds (the opening credit left out),
 * for invariant checks.
 */
export async function ledgerOf(ctx: TestContext, userId: number) {
  const [orders, logs] = await Promise.all([
    ctx.db
      .selectFrom('orders')
      .select(['id', 'total_price', 'status'])
      .where('user_id', '=', userId)
      .execute(),
    ctx.db
      .selectFrom('wallet_logs')
      .select(['status', 'name', 'name_ar', 'value', 'previous_balance', 'current_balance'])
      .where('user_id', '=', userId)
      .where('name', '!=', OPENING_LINE)
      .orderBy('id')
      .execute(),
  ])
  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n)
  const debits = logs.filter((l) => l.status === 'Discounted')
  return {
    orders,
    logs,
    debits,
    ordersTotal: sum(orders.map((o) => o.total_price)),
    debitsTotal: sum(debits.map((l) => l.value)),
  }
}
