import {
  perKey,
  RECEIPT_METHOD_ENTRIES,
  receiptKeys,
  SET_METHOD_ENTRIES,
} from '../../src/contract/payment-methods'
import { toMicros } from '../../src/domain/money'
import { ValidationError } from '../core/errors'
import {
  paymentSettings,
  taxPercentages,
  updatePaymentSettings,
  type PaymentSettings,
} from '../services/settings'
import { CommandError, UsageError, type Command } from './command'

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

export const settingsCommands: Record<string, Command> = {
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
