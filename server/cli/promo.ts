import { CurrencySchema } from '../../src/contract/profile'
import { PROMO_CODE_PATTERN, PROMO_USES_PATTERN } from '../../src/contract/console-catalogue'
import { toMicros } from '../../src/domain/money'
import { INT64_MAX } from '../db/bigint'
import { ApiError } from '../core/errors'
import {
  createPromo,
  disablePromo,
  listPromos,
  promoExpiry,
  promoKey,
  promoWire,
} from '../services/promo-codes'
import {
  choice,
  CommandError,
  dayOption,
  idArgument,
  required,
  table,
  UsageError,
  type Command,
} from './command'

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

export const promoCommands: Record<string, Command> = {
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
      const id = idArgument(args.positionals[0]!, 'a promo code number')
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
}
