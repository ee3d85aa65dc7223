import type { PurchaseTerms } from '../domain/ordering'

/** A plain item's order-form terms, with what a test changes. */
export const terms = (over: Partial<PurchaseTerms> = {}): PurchaseTerms => ({
  target: 'product',
  number: 1,
  minimum: 1,
  maximum: 0,
  requirements: [],
  requirePlayerNumber: false,
  thirdPartyApiId: null,
  thirdPartyAs7abApi: null,
  isTiktok: false,
  accountLogin: false,
  pkey: null,
  hasSecondPrice: false,
  services: [],
  ...over,
})
