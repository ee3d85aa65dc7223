import { writeFile } from 'node:fs/promises'
import { CurrencySchema } from '../../src/contract/profile'
import { PROMO_CODE_PATTERN, PROMO_USES_PATTERN } from '../../src/contract/console-catalogue'
import {
  perKey,
  RECEIPT_METHOD_ENTRIES,
  receiptKeys,
  SET_METHOD_ENTRIES,
} from '../../src/contract/payment-methods'
import { CHARGING_STATUSES } from '../../src/contract/wallet'
import { fromMicros, toMicros } from '../../src/domain/money'
import { INT64_MAX } from '../db/bigint'
import type { ChargingProcessRow } from '../db/schema-wallet'
import { approveCharge, findCharge, findCharges, rejectCharge } from '../services/charging'
import {
  paymentSettings,
  taxPercentages,
  updatePaymentSettings,
  type PaymentSettings,
} from '../services/settings'
import { ApiError, ValidationError } from '../core/errors'
import {
  createPromo,
  disablePromo,
  listPromos,
  promoExpiry,
  promoKey,
  promoWire,
} from '../services/promo-codes'
import { readReceipt } from '../services/receipts'
import {
  choice,
  CommandError,
  dayOption,
  idArgument,
  LIST_LIMIT,
  listCommand,
  reasonCommand,
  required,
  table,
  UsageError,
  type Command,
} from './command'

const chargeId = (text: string) => idArgument(text, 'a top-up number')

function view(charge: ChargingProcessRow, username: string) {
  return {
    id: charge.id,
    username,
    name: charge.name,
    value: fromMicros(charge.value),
    tax_percentage: fromMicros(charge.tax),
    shipping_value: fromMicros(charge.shipping_value),
    currency: charge.currency,
    status: charge.status,
    reject_reason: charge.reject_reason,
    receipt: charge.receipt_file !== null,
    created_at: charge.created_at,
    decided_at: charge.decided_at,
  }
}

/** Why a top-up could not be decided, for the terminal. */
function notWaiting(id: number, charge: ChargingProcessRow | undefined, action: string) {
  return charge
    ? new CommandError(`Top-up #${id} is ${charge.status}; only WAITING top-ups can be ${action}.`)
    : new CommandError(`No top-up #${id}.`)
}

/** A decimal amount above 0 from the command line, in micro-units. */
function amount(text: string, name: string): bigint {
  let micros: bigint
  try {
    micros = toMicros(text)
  } catch {
    throw new UsageError(`${name} must be a decimal number like 25 or 12.50`)
  }
  if (micros <= 0n) throw new UsageError(`${name} must be above 0`)
  if (micros > INT64_MAX) throw new UsageError(`${name} is too large`)
  return micros
}

/** A tax percentage from 0 to 100, in millionths of a percent. */
function taxOf(text: string, name: string): number {
  let micros: bigint
  try {
    micros = toMicros(text)
  } catch {
    throw new UsageError(`${name} must be a percentage like 2 or 1.5`)
  }
  if (micros < 0n || micros > 100_000_000n) throw new UsageError(`${name} must be from 0 to 100`)
  return Number(micros)
}

export const chargeCommands: Record<string, Command> = {
  'charges:list': listCommand({
    what: 'top-ups (charging processes)',
    statuses: CHARGING_STATUSES,
    empty: 'No top-ups.',
    list: async (ctx, filters) =>
      (await findCharges(ctx.db, filters, LIST_LIMIT)).map(({ username, ...charge }) =>
        view(charge, username),
      ),
    brief: (c) => ({
      id: c.id,
      username: c.username,
      name: c.name,
      value: `${c.value} ${c.currency}`,
      credits: c.shipping_value,
      status: c.status,
      created: c.created_at.slice(0, 16),
    }),
  }),

  'charges:approve': {
    summary: 'Approve a waiting top-up: its value less tax is credited, exactly once.',
    usage: '<id>',
    positionals: ['id'],
    async run(ctx, args) {
      const id = chargeId(args.positionals[0]!)
      const result = await approveCharge(ctx.db, id, {
        rate: ctx.config.lbpRate,
        now: ctx.clock.now(),
        actor: ctx.actor,
      })
      if (!result.changed) throw notWaiting(id, result.charge, 'approved')
      const balance = fromMicros(result.user!.balance)
      return {
        json: { ...view(result.charge, result.user!.username), balance },
        text: `Top-up #${id} approved: ${fromMicros(result.charge.shipping_value)} ${result.charge.currency} credited to ${result.user!.username} (balance ${balance} ${result.user!.currency}).`,
      }
    },
  },

  'charges:reject': reasonCommand({
    summary: 'Refuse a waiting top-up, with the reason the customer is told.',
    what: 'a top-up number',
    async run(ctx, id, reason) {
      const result = await rejectCharge(ctx.db, id, {
        reason,
        now: ctx.clock.now(),
        actor: ctx.actor,
      })
      if (!result.changed) throw notWaiting(id, result.charge, 'rejected')
      const owner = await ctx.db
        .selectFrom('users')
        .select('username')
        .where('id', '=', result.charge.user_id)
        .executeTakeFirstOrThrow()
      return {
        json: view(result.charge, owner.username),
        text: `Top-up #${id} rejected: ${reason}`,
      }
    },
  }),

  'charges:receipt': {
    summary: "Save a top-up's receipt photo (JPEG) to a file.",
    usage: '<id> --out FILE',
    positionals: ['id'],
    options: { out: { type: 'string' } },
    async run(ctx, args) {
      const id = chargeId(args.positionals[0]!)
      const out = required(args, 'out')
      const charge = await findCharge(ctx.db, undefined, id)
      if (!charge) throw new CommandError(`No top-up #${id}.`)
      if (!charge.receipt_file) throw new CommandError(`Top-up #${id} has no receipt.`)
      const bytes = await readReceipt(ctx.config.receipts.dir, charge.receipt_file)
      await writeFile(out, bytes)
      return {
        json: { id, out, bytes: bytes.byteLength },
        text: `Saved the receipt of top-up #${id} to ${out} (${bytes.byteLength} bytes).`,
      }
    },
  },

  'promo:create': {
    summary: 'Make a promo code: its value, how many customers may use it, until when.',
    usage: '--code C --value V [--currency USD|LBP] [--uses N] [--expires YYYY-MM-DD]',
    options: {
      code: { type: 'string' },
      value: { type: 'string' },
      currency: { type: 'string' },
      uses: { type: 'string' },
      expires: { type: 'string' },
    },
    async run(ctx, args) {
      const code = required(args, 'code').trim()
      if (!PROMO_CODE_PATTERN.test(code))
        throw new UsageError('--code must be 3 to 64 letters, digits, - or _')
      const value = amount(required(args, 'value'), '--value')
      const currency = choice(args, 'currency', CurrencySchema.options, 'USD')
      const usesText = typeof args.values.uses === 'string' ? args.values.uses : '1'
      if (!PROMO_USES_PATTERN.test(usesText))
        throw new UsageError('--uses must be a whole number from 1')
      const lastDay = dayOption(args, 'expires')
      const expiresAt = lastDay ? promoExpiry(lastDay) : null
      try {
        const promo = await createPromo(
          ctx.db,
          { code, value, currency, usesAllowed: Number(usesText), expiresAt },
          { now: ctx.clock.now(), actor: ctx.actor },
        )
        const json = promoWire(promo)
        return {
          json,
          text: `Code ${promo.code}: ${json.value} ${currency}, ${promo.uses_allowed} use(s)${lastDay ? `, until ${lastDay}` : ''}.`,
        }
      } catch (err) {
        if (err instanceof ApiError && err.status === 409)
          throw new CommandError(`A code ${promoKey(code)} exists already.`)
        throw err
      }
    },
  },

  'promo:list': {
    summary: 'List the promo codes and how often each was used.',
    usage: '',
    async run(ctx) {
      const codes = (await listPromos(ctx.db)).map((p) => {
        const { created_at: _, ...shown } = promoWire(p)
        return shown
      })
      return { json: codes, text: table(codes, 'No promo codes.') }
    },
  },

  'promo:disable': {
    summary: 'Switch a promo code off: it redeems no more; its uses so far stay on record.',
    usage: '<id>',
    positionals: ['id'],
    async run(ctx, args) {
      const id = chargeId(args.positionals[0]!)
      let result
      try {
        result = await disablePromo(ctx.db, id, { now: ctx.clock.now(), actor: ctx.actor })
      } catch (err) {
        if (err instanceof ApiError && err.status === 404)
          throw new CommandError(`No promo code #${id}.`)
        throw err
      }
      const { promo, changed } = result
      return {
        json: promoWire(promo),
        text: changed
          ? `Code ${promo.code} is switched off.`
          : `Code ${promo.code} was switched off already (${promo.disabled_at}).`,
      }
    },
  },

  'settings:payments': {
    summary: "Show or change the payment methods: USDT addresses, receipt methods' texts, taxes.",
    usage: [
      '[--usdt-trc20 ADDR] [--usdt-bep20 ADDR]',
      ...RECEIPT_METHOD_ENTRIES.map((m) => `[--${m.option}-text T]`),
      ...SET_METHOD_ENTRIES.map((m) => `[--${m.option}-tax P]`),
    ].join(' '),
    options: {
      'usdt-trc20': { type: 'string' },
      'usdt-bep20': { type: 'string' },
      ...Object.fromEntries([
        ...RECEIPT_METHOD_ENTRIES.map((m) => [`${m.option}-text`, { type: 'string' }] as const),
        ...SET_METHOD_ENTRIES.map((m) => [`${m.option}-tax`, { type: 'string' }] as const),
      ]),
    },
    async run(ctx, args) {
      const text = (name: string) => {
        const value = args.values[name]
        // An empty value turns the method off.
        return typeof value === 'string' ? value.trim() || null : undefined
      }
      const tax = (name: string) => {
        const value = args.values[name]
        return typeof value === 'string' ? taxOf(value, `--${name}`) : undefined
      }
      // A text given switches its method on, an empty one off (the Arabic texts stay as set).
      const trc20 = text('usdt-trc20')
      const bep20 = text('usdt-bep20')
      const receipts = RECEIPT_METHOD_ENTRIES.map((m) => {
        const given = text(`${m.option}-text`)
        return [
          [`${m.key}_text`, given],
          [`${m.key}_on`, given === undefined ? undefined : given ? 1 : 0],
        ]
      })
      const patch: Partial<PaymentSettings> = Object.fromEntries(
        [
          ['usdt_trc20', trc20],
          ['usdt_bep20', bep20],
          ['usdt_on', trc20 || bep20 ? 1 : undefined],
          ...receipts.flat(),
          ...SET_METHOD_ENTRIES.map((m) => [`${m.key}_tax`, tax(`${m.option}-tax`)]),
        ].filter(([, value]) => value !== undefined),
      )
      let settings: PaymentSettings
      try {
        settings =
          Object.keys(patch).length > 0
            ? await updatePaymentSettings(ctx.db, patch, { now: ctx.clock.now(), actor: ctx.actor })
            : await paymentSettings(ctx.db)
      } catch (err) {
        if (err instanceof ValidationError) throw new CommandError(err.toReply('en').message)
        throw err
      }
      const json = {
        usdt_trc20: settings.usdt_trc20,
        usdt_bep20: settings.usdt_bep20,
        ...perKey(receiptKeys('_text'), (key) => settings[key]),
        ...taxPercentages(settings),
      }
      return {
        json,
        text: Object.entries(json)
          .map(([key, value]) => `${key}: ${value ?? '(off)'}`)
          .join('\n'),
      }
    },
  },
}
