import type { Generated } from 'kysely'
import type { Currency as CurrencyCode } from '../../src/contract/profile'

/*
 * Orders fulfilled without an operator (migrations 0019 and 0021): the code stock, and the
 * upstream panels that packages are bought from (services/stock.ts, services/upstream.ts).
 */

/**
 * A code of the code stock (services/stock.ts): sealed, with the keyed hash of its canonical
 * form (unique), and the one order it went to, if any.
 */
export interface StockCodeTable {
  id: Generated<number>
  package_id: number
  /** AES-256-GCM, `v1.` + base64url (services/api-tokens.ts). */
  code_sealed: string
  /** HMAC-SHA256 of the canonical code, hex. */
  code_hash: string
  /** The last day it can be delivered (YYYY-MM-DD, UTC), or null. */
  expires_on: string | null
  created_at: string
  order_id: number | null
  delivered_at: string | null
  withdrawn_at: string | null
}

/** An upstream panel (services/upstream.ts): another store's API v2, its key sealed. */
export interface UpstreamPanelTable {
  id: Generated<number>
  name: string
  /** The API's address, as the panel gives it (https://panel.example/api/v2). */
  url: string
  /** AES-256-GCM, `v1.` + base64url (services/api-tokens.ts). */
  key_sealed: string
  created_at: string
}

/** A package bought from an upstream panel's service. */
export interface UpstreamServiceTable {
  package_id: number
  panel_id: number
  service: string
  created_at: string
}

/**
 * An order's one attempt at an upstream panel, written before the call: `sending` while the
 * call is out, `retry` when the panel could not be reached (nothing sent), `placed` once it
 * answered with its order id, `refused` with the panel's reason, `unknown` when no answer came
 * (it may have been placed: the operator decides), `closed` once our order is no longer open.
 */
export type UpstreamState = 'sending' | 'retry' | 'placed' | 'refused' | 'unknown' | 'closed'

export interface UpstreamOrderTable {
  id: Generated<number>
  order_id: number
  panel_id: number
  service: string
  state: UpstreamState
  attempts: number
  next_at: string | null
  upstream_id: string | null
  upstream_status: string | null
  charge: string | null
  start_count: string | null
  remains: string | null
  reason: string | null
  created_at: string
  updated_at: string
}

/** The refund of what an upstream did not deliver of an order (Partial), once per order. */
export interface OrderPartialTable {
  order_id: number
  remains: number
  amount: bigint
  currency: CurrencyCode
  created_at: string
}

/** A package with stock: its own low-stock threshold, and when it was last said to be low. */
export interface StockSettingTable {
  package_id: number
  /** Available codes at which the operator is told; null: STOCK_LOW_AT. */
  low_at: number | null
  low_noticed_at: string | null
}

export interface FulfilmentDatabase {
  stock_codes: StockCodeTable
  stock_settings: StockSettingTable
  upstream_panels: UpstreamPanelTable
  upstream_services: UpstreamServiceTable
  upstream_orders: UpstreamOrderTable
  order_partials: OrderPartialTable
}
