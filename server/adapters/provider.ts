/**
 * The fulfilment provider: who finds a player's name from their number, takes the orders and
 * says when they are done. A real one over HTTP when PROVIDER_URL is set (provider-http.ts),
 * otherwise the local demo one (provider-local.ts). Packages mapped to an upstream panel (the
 * SMM panel API v2, smm-v2.ts) are not handed to it: services/upstream.ts places those from a
 * background loop, each attempt recorded before its call, which a hand-over in the order's
 * request (placeOrder here) cannot do (docs/api.md, Upstream panels).
 */

/** Which player search a product uses: its th_party_api_id, or its th_party_as7ab_api name. */
export type PlayerApi = { kind: 'id'; id: number } | { kind: 'name'; name: string }

export type PlayerLookup = { found: true; name: string } | { found: false }

/** What the provider is told about an order. */
export interface ProviderOrder {
  id: number
  productId: number
  packageId: number | null
  /** The provider's id of the package (the catalogue's package_id). */
  providerPackageId: number | null
  productReference: string | null
  quantity: number
  playerNumber: string | null
  playerName: string | null
  serviceType: string | null
  socialLink: string | null
  walletAddress: string | null
  emailOrPhoneNumber: string | null
  password: string | null
  contactNumber: string | null
  requirements: Record<string, string>
}

/** The provider took the order (WAITING) or refused it (FAILED: an operator decides). */
export interface PlacedOrder {
  ref: string | null
  status: 'WAITING' | 'FAILED'
  /** Why it was refused, as the provider said it. */
  detail?: string
}

export interface ProviderOrderStatus {
  ref: string
  status: 'WAITING' | 'COMPLETED' | 'CANCELED'
  codes?: string[]
  note?: string
  reason?: string
  expiryDate?: string
}

export interface Provider {
  readonly kind: 'local' | 'http'
  lookupPlayer(api: PlayerApi, number: string): Promise<PlayerLookup>
  placeOrder(order: ProviderOrder): Promise<PlacedOrder>
  /** The state of orders by their references; a reference it does not know is left out. */
  orderStatus(refs: string[]): Promise<ProviderOrderStatus[]>
}

/** The provider could not be reached or answered something unusable. */
export class ProviderError extends Error {
  override name = 'ProviderError'
}
