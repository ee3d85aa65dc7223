import { expect, it } from 'vitest'
import { createLocalProvider } from './adapters/provider-local'
import { createApp } from './app'
import { createLogger } from './log'
import { postForm } from './test/accounts'
import { runOperator } from './test/cli'
import { describeEachDatabase, testPasswords } from './test/context'
import { customer, get, order, packageId } from './test/orders'

/*
 * The rows a request makes for later (an outbox message, a push job) and the operators'
 * audit rows carry the id of the request or operator command that made them: the request's
 * X-Request-Id, the `requestId` of its log lines.
 */
describeEachDatabase('request ids on the rows a request makes', (ctx) => {
  it('an outbox message carries its request id, as the reply and the log line say', async () => {
    const lines: Record<string, unknown>[] = []
    const logger = createLogger('info', (line) =>
      lines.push(JSON.parse(line) as Record<string, unknown>),
    )
    const app = createApp({ db: ctx.db, config: ctx.config, clock: ctx.clock, logger })
    const { user } = await customer(ctx)
    const res = await postForm(app, 'send/verification-code', { email: user.email! })
    expect(res.status, await res.clone().text()).toBe(200)
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(/^[\w-]{8,}$/)
    expect(lines.find((l) => l.msg === 'request' && l.requestId === id)).toMatchObject({
      path: '/api/send/verification-code',
    })
    const row = await ctx.db
      .selectFrom('outbox')
      .select('request_id')
      .where('recipient', '=', user.email!)
      .executeTakeFirstOrThrow()
    expect(row.request_id).toBe(id)
  })

  it("a push job carries the id of the status refresh that completed the customer's order", async () => {
    // The provider finishes every order it is asked about.
    const provider = {
      ...createLocalProvider(),
      orderStatus: async (refs: string[]) =>
        refs.map((ref) => ({ ref, status: 'COMPLETED' as const })),
    }
    const app = createApp({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      passwords: testPasswords,
      provider,
    })
    const buyer = await customer(ctx)
    const placed = await order(app, buyer.token, {
      package_id: await packageId(ctx, 27, 'iTunes $5'),
    })
    expect(placed.status).toBe(200)
    const placedId = placed.headers.get('x-request-id')
    await expect
      .poll(
        async () =>
          (
            await ctx.db
              .selectFrom('orders')
              .select('provider_ref')
              .where('user_id', '=', buyer.user.id)
              .executeTakeFirstOrThrow()
          ).provider_ref,
      )
      .not.toBe(null)
    const refresh = await get(app, 'automated/get/status/bulk', buyer.token)
    expect(refresh.status, await refresh.clone().text()).toBe(200)
    const jobs = await ctx.db
      .selectFrom('push_jobs')
      .select('request_id')
      .where('user_id', '=', buyer.user.id)
      .execute()
    expect(jobs).toEqual([{ request_id: refresh.headers.get('x-request-id') }])
    expect(jobs[0]!.request_id).not.toBe(placedId)
  })

  it("an audit row and the push job of one operator command carry that command's id", async () => {
    const { user } = await customer(ctx)
    const debit = await runOperator(
      ctx,
      'wallet:debit',
      user.username,
      '5',
      '--reason',
      'a correction',
    )
    expect(debit.stderr).toBe('')
    const audit = await runOperator(ctx, 'audit:list', '--user', user.username, '--json')
    const [row] = JSON.parse(audit.stdout) as { action: string; request_id: string | null }[]
    expect(row?.action).toBe('wallet:debit')
    expect(row?.request_id).toMatch(/^[\w-]{36}$/)
    const jobs = await ctx.db
      .selectFrom('push_jobs')
      .select('request_id')
      .where('user_id', '=', user.id)
      .execute()
    expect(jobs).toEqual([{ request_id: row!.request_id }])
  })
})
