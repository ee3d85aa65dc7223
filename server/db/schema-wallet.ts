import type { Generated, Selectable } from 'kysely'
import type { ChargingMethod, ChargingStatus, UsdtNetwork } from '../../src/contract/wallet'
import type { Currency as CurrencyCode } from '../../src/contract/profile'

/*
 * Money in (migration 0007_wallet). Amounts are integer micro-units of their currency (read
 * as bigint); percentages are millionths of a percent (2.5 % is 2,500,000).
 */

/** Singleton row (id = 1): the store's USDT addresses, set by `settings:payments`. */
export interface PaymentSettingsTable {
  id: number
  usdt_trc20: string | null
  usdt_bep20: string | null
  updated_at: string
}

/**
 * A payment method's settings (0026_payment_methods), a row per method of
 * src/contract/payment-methods.ts once set: offered (1) or turned off by the owner (0, its
 * texts kept), a receipt method's instructions in English and Arabic, its tax. A top-up's
 * method is one of these rows.
 */
export interface PaymentMethodTable {
  method: ChargingMethod
  offered: number
  text: string | null
  text_ar: string | null
  tax: number
  updated_at: string
}

/** A top-up: its value, the tax of its method, what it credits, and its state. */
export interface ChargingProcessTable {
  id: Generated<number>
  user_id: number
  name: ChargingMethod
  value: bigint
  tax: Generated<number>
  /** Value less tax: what the wallet receives when it completes. */
  shipping_value: bigint
  currency: CurrencyCode
  status: Generated<ChargingStatus>
  reject_reason: string | null
  /** The re-encoded receipt's server-made file name in RECEIPTS_DIR. */
  receipt_file: string | null
  promo_code_id: number | null
  created_at: string
  updated_at: string
  decided_at: string | null
}

export interface PromoCodeTable {
  id: Generated<number>
  /** As the operator wrote it; `code_key` (upper case) is what must be unique. */
  code: string
  code_key: string
  value: bigint
  currency: CurrencyCode
  uses_allowed: number
  uses: Generated<number>
  expires_at: string | null
  created_at: string
  /** Switched off by an operator: it redeems no more. */
  disabled_at: string | null
}

/** One customer's use of a code: at most one per customer (the primary key). */
export interface PromoRedemptionTable {
  promo_code_id: number
  user_id: number
  charging_process_id: number
  created_at: string
}

/** A customer's USDT payment, told apart by its exact amount (micro-USDT). */
export interface UsdtRequestTable {
  id: Generated<number>
  user_id: number
  network: UsdtNetwork
  address: string
  amount: bigint
  unique_amount: bigint
  tax: number
  /** OPEN (one per customer at most), EXPIRED once a newer one replaced it, PAID. */
  status: Generated<'OPEN' | 'EXPIRED' | 'PAID'>
  expires_at: string
  watch_until: string
  /** The transaction that paid it (another request may be paid by the same one: a batch). */
  tx_hash: string | null
  charging_process_id: number | null
  paid_at: string | null
  created_at: string
}

/** An exact amount held by one request of a network until its watch window ends. */
export interface UsdtAmountHoldTable {
  network: UsdtNetwork
  unique_amount: bigint
  request_id: number
  watch_until: string
}

export type TransferOutcome = 'CREDITED' | 'LATE' | 'EXTRA' | 'UNMATCHED' | 'INEXACT'

/**
 * Every USDT transfer to the store the watchers saw (or an operator confirmed), once by
 * (network, tx_hash, log_index): the hash in its network's spelling (canonicalTxHash), the
 * log index -1 for a transaction confirmed by hand without one.
 */
export interface UsdtTransferTable {
  id: Generated<number>
  network: UsdtNetwork
  tx_hash: string
  log_index: number
  from_address: string
  to_address: string
  amount: bigint
  exact: number
  block_number: bigint
  block_time: string
  outcome: TransferOutcome
  request_id: number | null
  created_at: string
}

export interface WalletDatabase {
  payment_settings: PaymentSettingsTable
  payment_methods: PaymentMethodTable
  charging_processes: ChargingProcessTable
  promo_codes: PromoCodeTable
  promo_redemptions: PromoRedemptionTable
  usdt_requests: UsdtRequestTable
  usdt_amount_holds: UsdtAmountHoldTable
  usdt_transfers: UsdtTransferTable
}

export type ChargingProcessRow = Selectable<ChargingProcessTable>
export type PromoCodeRow = Selectable<PromoCodeTable>
export type UsdtRequestRow = Selectable<UsdtRequestTable>
