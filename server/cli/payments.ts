import * as v from 'valibot'
import { USDT_STATES as STATUSES } from '../../src/contract/console-usdt'
import { USDT_NETWORKS, UsdtNetworkSchema, type UsdtNetwork } from '../../src/contract/wallet'
import { microsText } from '../../src/domain/money'
import { ApiError } from '../core/errors'
import { t } from '../i18n'
import { confirmByHand } from '../services/usdt'
import { listUsdtRequests, unmatchedTransfers } from '../services/usdt-lists'
import {
  CommandError,
  LIST_LIMIT,
  listCommand,
  required,
  table,
  UsageError,
  type Command,
} from './command'

export const paymentCommands: Record<string, Command> = {
  'payments:list': listCommand({
    what: 'USDT payment requests',
    statuses: STATUSES,
    more: {
      usage: `[--network ${USDT_NETWORKS.join('|')}]`,
      options: { network: { type: 'string' } },
    },
    empty: 'No USDT payments.',
    async list(ctx, { status: state, userId }, args) {
      let network: UsdtNetwork | undefined
      if (typeof args.values.network === 'string') {
        const text = args.values.network.toLowerCase()
        if (!v.is(UsdtNetworkSchema, text))
          throw new UsageError(`--network must be one of ${USDT_NETWORKS.join(', ')}`)
        network = text
      }
      const rows = await listUsdtRequests(
        ctx.db,
        {
          ...(state && { state }),
          ...(userId !== undefined && { userId }),
          ...(network && { network }),
        },
        { now: ctx.clock.now(), limit: LIST_LIMIT },
      )
      return rows.map(({ username, ...r }) => ({
        id: r.id,
        username,
        network: r.network,
        unique_amount: microsText(r.unique_amount),
        status: r.state,
        address: r.address,
        tx_hash: r.tx_hash,
        expires_at: r.expires_at,
        created_at: r.created_at,
      }))
    },
    brief: ({ id, username, network, unique_amount, status, expires_at }) => ({
      id,
      username,
      network,
      unique_amount,
      status,
      expires: expires_at.slice(0, 16),
    }),
  }),

  'payments:confirm': {
    summary:
      'Confirm by hand that a USDT payment arrived (its transaction hash, with or without 0x): credits it once.',
    usage: '<payment_id> --tx HASH [--log N]',
    positionals: ['payment_id'],
    options: { tx: { type: 'string' }, log: { type: 'string' } },
    async run(ctx, args) {
      const text = args.positionals[0]!
      if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError('<payment_id> must be a number')
      const tx = required(args, 'tx').trim()
      if (!/^(0x)?[0-9a-fA-F]{64}$/.test(tx))
        throw new UsageError('--tx must be a transaction hash: 64 hex digits (0x first on BSC)')
      const log = args.values.log === undefined ? undefined : String(args.values.log)
      if (log !== undefined && !/^\d{1,9}$/.test(log))
        throw new UsageError("--log must be the transfer's log (event) index in the transaction")
      try {
        const request = await confirmByHand(ctx.db, Number(text), tx, {
          rate: ctx.config.lbpRate,
          now: ctx.clock.now(),
          actor: ctx.actor,
          ...(log === undefined ? {} : { log: Number(log) }),
        })
        return {
          json: {
            id: request.id,
            network: request.network,
            unique_amount: microsText(request.unique_amount),
            status: 'PAID',
            tx_hash: request.tx_hash,
          },
          text: `USDT payment #${request.id} confirmed: ${microsText(request.unique_amount)} USDT.`,
        }
      } catch (err) {
        if (err instanceof ApiError) throw new CommandError(t('en', err.messageId, err.values))
        throw err
      }
    },
  },

  'payments:unmatched': {
    summary: 'Transfers the watchers recorded but did not credit: late, extra, stray or dust.',
    usage: '',
    async run(ctx) {
      const rows = await unmatchedTransfers(ctx.db, { now: ctx.clock.now(), limit: LIST_LIMIT })
      const transfers = rows.map((r) => ({
        id: r.id,
        network: r.network,
        tx_hash: r.tx_hash,
        log_index: r.log_index,
        from: r.from_address,
        amount: microsText(r.amount),
        outcome: r.outcome,
        request_id: r.request_id,
        block_time: r.block_time,
      }))
      return { json: transfers, text: table(transfers, 'No unmatched transfers.') }
    },
  },
}
