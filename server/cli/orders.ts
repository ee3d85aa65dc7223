import { ORDER_STATUSES } from '../../src/contract/constants'
import { fromMicros } from '../../src/domain/money'
import type { OrderRow } from '../db/schema'
import { cancelOrder, completeOrder, OPEN_STATUSES, partialOrder } from '../services/order-status'
import { createProvider } from '../adapters/providers'
import { findOrders, retryHandOver } from '../services/console-orders'
import { itemName } from '../services/item-name'
import { withStockCodes } from '../services/stock'
import {
  CommandError,
  dayOption,
  idArgument,
  LIST_LIMIT,
  listCommand,
  reasonCommand,
  UsageError,
  type Command,
} from './command'

function view(order: OrderRow, username: string) {
  return {
    id: order.id,
    user: username,
    status: order.status,
    item: itemName(order, 'en'),
    quantity: order.quantity,
    total: fromMicros(order.total_price),
    currency: order.currency,
    player_number: order.player_number,
    provider_ref: order.provider_ref,
    refuse_reason: order.refuse_reason,
    accept_note: order.accept_note,
    item_codes: (JSON.parse(order.item_codes) as { code: string }[]).map((c) => c.code),
    created_at: order.created_at,
    updated_at: order.updated_at,
  }
}

const orderId = (text: string) => idArgument(text, 'an order number')

/** Why an order could not change, for the terminal. */
function notOpen(id: number, order: OrderRow | undefined, action: string): CommandError {
  return order
    ? new CommandError(
        `Order #${id} is ${order.status}; only ${OPEN_STATUSES.join(' or ')} orders can be ${action}.`,
      )
    : new CommandError(`No order #${id}.`)
}

async function usernameOf(ctx: Parameters<Command['run']>[0], userId: number) {
  const user = await ctx.db
    .selectFrom('users')
    .select('username')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  return user.username
}

/** orders:complete --remains: delivered but for `remains`, whose price goes back (partialOrder). */
async function completeInPart(ctx: Parameters<Command['run']>[0], id: number, text: string) {
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new UsageError('--remains must be a whole number from 1')
  const current = await ctx.db
    .selectFrom('orders')
    .select('quantity')
    .where('id', '=', id)
    .executeTakeFirst()
  if (current && Number(text) >= current.quantity)
    throw new UsageError(
      `--remains must be less than the quantity (${current.quantity}); cancel the order instead`,
    )
  const result = await partialOrder(ctx.db, id, {
    remains: Number(text),
    lbpRate: ctx.config.lbpRate,
    now: ctx.clock.now(),
  })
  if (!result.changed) throw notOpen(id, result.order, 'completed')
  const order = view(result.order, await usernameOf(ctx, result.order.user_id))
  const refund = fromMicros(result.refund ?? 0n)
  return {
    json: { ...order, remains: Number(text), refund },
    text: `Order #${id} (${order.item}, ${order.user}) is COMPLETED but for ${text}; ${refund} went back to ${order.user}.`,
  }
}

export const orderCommands: Record<string, Command> = {
  'orders:list': listCommand({
    what: 'orders',
    statuses: ORDER_STATUSES,
    empty: '(no orders)',
    async list(ctx, filters) {
      const { data: rows } = await findOrders(ctx.db, filters, {
        timeZone: ctx.config.storeTimeZone,
        page: { page: 1, perPage: LIST_LIMIT },
      })
      // The operator sees the codes the stock delivered, as the orders' owners do.
      const shown = await withStockCodes(ctx.db, ctx.config.tokenSecret, rows)
      return shown.map(({ username, phone_number: _, ...order }) => view(order, username))
    },
    brief: (o) => ({
      id: o.id,
      user: o.user,
      status: o.status,
      item: o.item,
      qty: o.quantity,
      total: `${o.total} ${o.currency}`,
      created_at: o.created_at,
    }),
  }),

  'orders:complete': {
    summary:
      'Complete a WAITING or FAILED order, with the delivered codes and a note; --remains N: all but N delivered, N refunded (once).',
    usage: '<id> [--code CODE ...] [--note TEXT] [--expiry YYYY-MM-DD] | <id> --remains N',
    positionals: ['id'],
    options: {
      code: { type: 'string', multiple: true },
      note: { type: 'string' },
      expiry: { type: 'string' },
      remains: { type: 'string' },
    },
    async run(ctx, args) {
      const id = orderId(args.positionals[0]!)
      if (typeof args.values.remains === 'string')
        return completeInPart(ctx, id, args.values.remains)
      const codes = ((args.values.code ?? []) as string[]).map((c) => c.trim()).filter(Boolean)
      const note = typeof args.values.note === 'string' ? args.values.note.trim() || null : null
      const expiry = dayOption(args, 'expiry')
      const result = await completeOrder(ctx.db, id, {
        codes,
        note,
        expiryDate: expiry,
        now: ctx.clock.now(),
        actor: ctx.actor,
      })
      if (!result.changed) throw notOpen(id, result.order, 'completed')
      const order = view(result.order, await usernameOf(ctx, result.order.user_id))
      return {
        json: order,
        text:
          `Order #${id} (${order.item}, ${order.user}) is COMPLETED` +
          (codes.length > 0 ? ` with ${codes.length} code${codes.length === 1 ? '' : 's'}.` : '.'),
      }
    },
  },

  'orders:cancel': reasonCommand({
    summary: 'Cancel a WAITING or FAILED order and refund it to the wallet (exactly once).',
    what: 'an order number',
    async run(ctx, id, reason) {
      const result = await cancelOrder(ctx.db, id, {
        reason,
        lbpRate: ctx.config.lbpRate,
        now: ctx.clock.now(),
        actor: ctx.actor,
      })
      if (!result.changed) throw notOpen(id, result.order, 'canceled')
      const user = await ctx.db
        .selectFrom('users')
        .select(['username', 'balance', 'currency'])
        .where('id', '=', result.order.user_id)
        .executeTakeFirstOrThrow()
      const refund = fromMicros(result.refund ?? 0n)
      return {
        json: {
          ...view(result.order, user.username),
          refund,
          refund_currency: user.currency,
          balance: fromMicros(user.balance),
        },
        text: `Order #${id} is CANCELED; ${refund} ${user.currency} went back to ${user.username} (balance ${fromMicros(user.balance)} ${user.currency}).`,
      }
    },
  }),

  'orders:retry': {
    summary:
      'Hand a FAILED order (or an upstream order left to you) over again: to the provider, or to its panel on the next round.',
    usage: '<id>',
    positionals: ['id'],
    async run(ctx, args) {
      const id = orderId(args.positionals[0]!)
      const result = await retryHandOver(ctx.db, createProvider(ctx.config), id, {
        now: ctx.clock.now(),
        actor: ctx.actor,
      })
      if (!result.order) throw new CommandError(`No order #${id}.`)
      if (!result.changed)
        throw new CommandError(
          `Order #${id} (${result.order.status}) has no failed hand-over to retry.`,
        )
      const order = view(result.order, await usernameOf(ctx, result.order.user_id))
      return { json: order, text: `Order #${id} was handed over again; it is ${order.status}.` }
    },
  },
}
