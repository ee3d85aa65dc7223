import { writeFile } from 'node:fs/promises'
import { CHARGING_STATUSES } from '../../src/contract/wallet'
import { fromMicros } from '../../src/domain/money'
import type { ChargingProcessRow } from '../db/schema-wallet'
import { approveCharge, findCharge, findCharges, rejectCharge } from '../services/charging'
import { readPhoto } from '../services/receipts'
import {
  CommandError,
  idArgument,
  LIST_LIMIT,
  listCommand,
  reasonCommand,
  required,
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
      const bytes = await readPhoto(ctx.config.receipts.dir, charge.receipt_file)
      await writeFile(out, bytes)
      return {
        json: { id, out, bytes: bytes.byteLength },
        text: `Saved the receipt of top-up #${id} to ${out} (${bytes.byteLength} bytes).`,
      }
    },
  },
}
