import { t } from '@lingui/core/macro'
import {
  firstOrderProblem,
  isFreeFire,
  type OrderProblem,
  type PurchaseTerms,
} from '../../domain/ordering'

/** The form's values as typed, by field name (the item's requirement fields too). */
export type OrderValues = Record<string, string>

export const emptyValues = (terms: PurchaseTerms): OrderValues => ({
  quantity: isFreeFire(terms) ? '1' : String(Math.max(1, terms.minimum || 1)),
  service_type: terms.services[0]?.type ?? '',
})

/** Typing above the maximum is clamped to it; only digits are kept. */
export function clampQuantity(typed: string, maximum: number): string {
  const digits = typed.replace(/\D/g, '')
  if (!digits) return ''
  const value = Number(digits)
  return String(maximum > 0 && value > maximum ? maximum : value)
}

/** How the form names its own fields in a message (the item's fields have their labels). */
function fieldLabel(field: string): string {
  switch (field) {
    case 'quantity':
      return t`Quantity`
    case 'social_link':
      return t`Link`
    case 'wallet_address':
      return t`Wallet address`
    case 'email_or_phone_number':
      return t`Email or phone number`
    case 'password':
      return t`Password`
    case 'player_number':
      return t`Player number`
    case 'contact_number':
      return t`Contact number`
    case 'service_type':
      return t`Service`
    default:
      return field
  }
}

/** A problem of the order rules in the customer's language. */
export function problemText(problem: OrderProblem): string {
  const label = problem.values?.label ?? fieldLabel(problem.field)
  const min = problem.values?.min ?? 1
  const max = problem.values?.max ?? 0
  switch (problem.id) {
    case 'order.quantity.min':
      return t`Quantity must be greater than or equal to ${min}`
    case 'order.quantity.max':
      return t`Quantity must be less than or equal to ${max}`
    case 'order.quantity.integer':
      return t`Quantity must be a whole number.`
    case 'order.field.required':
      return t`${label} is required.`
    case 'order.field.too_long':
      return t`${label} may not be longer than ${max} characters`
    case 'order.field.characters':
      return t`${label} contains characters that cannot be used.`
    case 'order.email_or_phone.invalid':
      return t`Enter an e-mail address or a phone number.`
    case 'order.player_number.unverified':
      return t`The player number must be correct.`
    case 'order.service_type.invalid':
      return t`Choose one of the services of this product.`
  }
}

/** The first problem of the form (only the first is shown), or null when it may be placed. */
export function firstProblem(
  terms: PurchaseTerms,
  values: OrderValues,
  verifiedNumber: string | null,
): string | null {
  const number = values.player_number?.trim()
  const problem = firstOrderProblem(terms, values, {
    playerVerified: !!number && number === verifiedNumber,
  })
  return problem && problemText(problem)
}
