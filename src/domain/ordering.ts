import { ORDER_QUANTITY_MAX, ORDER_TEXT_MAX } from '../contract/orders'

/*
 * The order forms' rules, one copy for both sides: the storefront checks a form before it is
 * sent and the server checks it again before it charges. Problems are message ids with their
 * values; each side says them in the customer's language (the storefront's Lingui catalogue,
 * the server's `locales/<lang>/server.po`). See docs/architecture.md, "Order rules".
 */

/** What decides an item's form and its rules, whichever side reads it. */
export interface PurchaseTerms {
  target: 'product' | 'package'
  /** The product's page kind, 1 to 7. */
  number: number
  /** 0 when there is none; a social service has its own. */
  minimum: number
  /** 0 when there is none. */
  maximum: number
  /** The item's own fields, each required; labels in the customer's language. */
  requirements: { name: string; label: string }[]
  requirePlayerNumber: boolean
  thirdPartyApiId: number | null
  thirdPartyAs7abApi: string | null
  isTiktok: boolean
  /** The item signs in to the customer's game account: e-mail or phone, and a password. */
  accountLogin: boolean
  pkey: string | null
  hasSecondPrice: boolean
  /** Social services: the tabs, each with its own minimum. */
  services: { type: string; minimum: number }[]
}

export type FormKind = 'social' | 'crypto' | 'requirements' | 'standard'

/**
 * The crypto rule: products of the third kind, and items with a second price, are paid to a
 * wallet address and priced by the crypto price.
 */
export const isCrypto = (terms: Pick<PurchaseTerms, 'number' | 'hasSecondPrice'>) =>
  terms.number === 3 || terms.hasSecondPrice

/** Which of the four order forms an item gets. */
export function formKind(terms: PurchaseTerms): FormKind {
  if (terms.services.length > 0) return 'social'
  if (isCrypto(terms)) return 'crypto'
  if (terms.requirements.length > 0) return 'requirements'
  return 'standard'
}

/** The Free Fire package variant hides quantity and total: one unit per order. */
export const isFreeFire = (terms: PurchaseTerms) =>
  terms.target === 'package' && terms.pkey === 'FREE_FIRE'

/** The game form asks for a player number (TikTok's variant signs in instead). */
export const needsPlayerNumber = (terms: PurchaseTerms) =>
  formKind(terms) === 'standard' &&
  !terms.isTiktok &&
  (terms.requirePlayerNumber || terms.thirdPartyApiId !== null)

/** The player number must have been looked up successfully, and not changed since. */
export const playerMustBeVerified = (terms: PurchaseTerms) =>
  needsPlayerNumber(terms) && terms.thirdPartyApiId !== null && !terms.requirePlayerNumber

/** The item is about the customer's own account (TikTok's, or one it signs in to). */
export const asksAccountLogin = (terms: PurchaseTerms) =>
  formKind(terms) === 'standard' && (terms.isTiktok || terms.accountLogin)

/**
 * Every standard form offers the account's e-mail or phone and a password; only an item that
 * signs in to the account (`account_login`) needs the e-mail or phone.
 */
export const requiresAccountLogin = (terms: PurchaseTerms) =>
  formKind(terms) === 'standard' && terms.accountLogin

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+?[\d\s().-]+$/

/** An e-mail address (something@somewhere.tld) or a phone number of 6 to 15 digits. */
export function isEmailOrPhone(value: string): boolean {
  const text = value.trim()
  if (EMAIL.test(text)) return true
  const digits = text.replace(/\D/g, '').length
  return PHONE.test(text) && digits >= 6 && digits <= 15
}

/** The social service a form chose, by its type in any case ("likes" is LIKES). */
export const chosenService = <S extends { type: string }>(
  services: S[],
  type: string | undefined,
) =>
  type === undefined
    ? undefined
    : services.find((s) => s.type.toUpperCase() === type.trim().toUpperCase())

/** The quantity bound in force: a social service has its own minimum. */
export function minimumOf(terms: PurchaseTerms, serviceType: string | undefined): number {
  const service = chosenService(terms.services, serviceType)
  return Math.max(0, service ? service.minimum : terms.minimum)
}

/** The fields an item's form sends (besides the item's id): anything else is not kept. */
export function formFields(terms: PurchaseTerms): string[] {
  const fields = isFreeFire(terms) ? [] : ['quantity']
  switch (formKind(terms)) {
    case 'social':
      return [...fields, 'service_type', 'social_link']
    case 'crypto':
      return [...fields, 'wallet_address']
    case 'requirements':
      return [...fields, ...terms.requirements.map((r) => r.name)]
    case 'standard':
      return [
        ...fields,
        ...(needsPlayerNumber(terms) ? ['player_number', 'player_name'] : []),
        'email_or_phone_number',
        'password',
        'contact_number',
      ]
  }
}

/** Every message an order form's rules can give. */
export type OrderMessageId =
  | 'order.quantity.min'
  | 'order.quantity.max'
  | 'order.quantity.integer'
  | 'order.field.required'
  | 'order.field.too_long'
  | 'order.field.characters'
  | 'order.email_or_phone.invalid'
  | 'order.player_number.unverified'
  | 'order.service_type.invalid'

/**
 * One problem with a form. `label` is set for the item's own requirement fields (the
 * catalogue names them); for the form's built-in fields each side names `field` itself.
 */
export interface OrderProblem {
  field: string
  id: OrderMessageId
  values?: { min?: number; max?: number; label?: string }
}

/** The form's values as typed (trimmed or not); a missing field is undefined. */
export type OrderInput = Record<string, string | undefined>

/**
 * Control and format characters (a right-to-left override, a zero-width joiner, a NUL) have
 * no place in what a customer types for an order; they could hide what the provider reads.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u

const filled = (value: string | undefined) => value !== undefined && value.trim() !== ''

/**
 * The first problem of an order form, in the order the form shows them, or null when it may
 * be placed. `playerVerified` says whether the player number was looked up and is unchanged.
 */
export function firstOrderProblem(
  terms: PurchaseTerms,
  input: OrderInput,
  { playerVerified }: { playerVerified: boolean },
): OrderProblem | null {
  const fields = formFields(terms)
  for (const field of fields) {
    const value = input[field]
    if (value === undefined) continue
    if (value.length > ORDER_TEXT_MAX)
      return { field, id: 'order.field.too_long', values: { max: ORDER_TEXT_MAX } }
    if (UNPRINTABLE.test(value)) return { field, id: 'order.field.characters' }
  }

  const kind = formKind(terms)
  if (kind === 'social') {
    if (!filled(input.service_type)) return { field: 'service_type', id: 'order.field.required' }
    if (!chosenService(terms.services, input.service_type))
      return { field: 'service_type', id: 'order.service_type.invalid' }
  }

  if (!isFreeFire(terms)) {
    // A request without the field buys one, as a form without a quantity does; an emptied
    // field is no quantity at all.
    const typed = input.quantity?.trim() ?? '1'
    if (typed !== '' && !/^\d{1,15}$/.test(typed))
      return { field: 'quantity', id: 'order.quantity.integer' }
    const quantity = typed === '' ? 0 : Number(typed)
    const minimum = minimumOf(terms, input.service_type)
    if (terms.target === 'package' && terms.thirdPartyApiId === null && quantity < 1)
      return { field: 'quantity', id: 'order.quantity.min', values: { min: 1 } }
    if (quantity < minimum)
      return { field: 'quantity', id: 'order.quantity.min', values: { min: minimum } }
    if (terms.maximum > 0 && quantity > terms.maximum)
      return { field: 'quantity', id: 'order.quantity.max', values: { max: terms.maximum } }
    if (quantity < 1) return { field: 'quantity', id: 'order.quantity.min', values: { min: 1 } }
    if (quantity > ORDER_QUANTITY_MAX)
      return { field: 'quantity', id: 'order.quantity.max', values: { max: ORDER_QUANTITY_MAX } }
  }

  const required = (field: string, label?: string): OrderProblem | null =>
    filled(input[field])
      ? null
      : { field, id: 'order.field.required', ...(label === undefined ? {} : { values: { label } }) }

  switch (kind) {
    case 'requirements':
      for (const { name, label } of terms.requirements) {
        const problem = required(name, label)
        if (problem) return problem
      }
      return null
    case 'social':
      return required('social_link')
    case 'crypto':
      return required('wallet_address')
    case 'standard': {
      if (needsPlayerNumber(terms)) {
        const problem = playerMustBeVerified(terms)
          ? filled(input.player_number) && playerVerified
            ? null
            : ({ field: 'player_number', id: 'order.player_number.unverified' } as const)
          : required('player_number')
        if (problem) return problem
      }
      const login = input.email_or_phone_number
      if (requiresAccountLogin(terms) && !filled(login))
        return { field: 'email_or_phone_number', id: 'order.field.required' }
      if (filled(login) && !isEmailOrPhone(login!))
        return { field: 'email_or_phone_number', id: 'order.email_or_phone.invalid' }
      return null
    }
  }
}
