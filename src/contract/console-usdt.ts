import * as v from 'valibot'
import { TX_HASH_PATTERN } from './constants'
import { UsdtNetworkSchema } from './wallet'

/*
 * The console's USDT screen and the operators' alerts (docs/api.md, Console: USDT, Alerts).
 * Amounts are USDT as decimal text with up to 6 decimals, as the chain has them.
 */

export const USDT_STATES = ['OPEN', 'PAID', 'EXPIRED'] as const
export const UsdtStateSchema = v.picklist(USDT_STATES)
export type UsdtState = v.InferOutput<typeof UsdtStateSchema>

/** GET admin/usdt?status= */
export const UsdtListQuerySchema = v.object({ status: v.optional(UsdtStateSchema, 'OPEN') })

/** POST admin/usdt/{id}/confirm */
export const UsdtConfirmSchema = v.object({
  tx_hash: v.pipe(v.string(), v.trim(), v.minLength(1), v.regex(TX_HASH_PATTERN)),
})

const UsdtRequestSchema = v.object({
  id: v.number(),
  username: v.string(),
  network: UsdtNetworkSchema,
  address: v.string(),
  unique_amount: v.string(),
  state: UsdtStateSchema,
  tx_hash: v.nullable(v.string()),
  expires_at: v.string(),
  paid_at: v.nullable(v.string()),
  created_at: v.string(),
})
export type UsdtRequest = v.InferOutput<typeof UsdtRequestSchema>

/** GET admin/usdt */
export const UsdtListReplySchema = v.object({ data: v.array(UsdtRequestSchema) })

const TransferSchema = v.object({
  id: v.number(),
  network: UsdtNetworkSchema,
  tx_hash: v.string(),
  from_address: v.string(),
  amount: v.string(),
  /** LATE, EXTRA, UNMATCHED or INEXACT: why it credited nothing. */
  outcome: v.string(),
  request_id: v.nullable(v.number()),
  block_time: v.string(),
  /** Unpaid requests of its network for the same amount, around its time. */
  candidates: v.array(UsdtRequestSchema),
})
export type UnmatchedTransfer = v.InferOutput<typeof TransferSchema>

/** GET admin/usdt/unmatched */
export const UnmatchedReplySchema = v.object({ data: v.array(TransferSchema) })

/** POST admin/usdt/{id}/confirm */
export const UsdtConfirmReplySchema = v.object({ message: v.string(), data: UsdtRequestSchema })

/** GET admin/alerts: what the console bar's badge counts. */
export const AlertsReplySchema = v.object({
  data: v.object({ waiting_top_ups: v.number(), unmatched_transfers: v.number() }),
})

/** POST admin/push-token: this device's push token, for the operators' alerts. */
export const ConsolePushTokenSchema = v.object({
  fcm_token: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(4096)),
})
