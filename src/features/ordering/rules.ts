import { t } from '@lingui/core/macro'
import { isFreeFire, needsPlayerNumber, type FormKind, type Purchasable } from './item'

export interface OrderValues {
  quantity: string
  player_number: string
  email_or_phone_number: string
  password: string
  contact_number: string
  service_type: string
  social_link: string
  wallet_address: string
  requirements: Record<string, string>
}

export const emptyValues = (item: Purchasable): OrderValues => ({
  quantity: isFreeFire(item) ? '1' : String(Math.max(1, item.minimum || 1)),
  player_number: '',
  email_or_phone_number: '',
  password: '',
  contact_number: '',
  service_type: item.services[0]?.type ?? '',
  social_link: '',
  wallet_address: '',
  requirements: {},
})

/** Minimum quantity in force: a social service has its own. */
export function minimumOf(item: Purchasable, values: OrderValues): number {
  const service = item.services.find((s) => s.type === values.service_type)
  return Math.max(0, service ? (service.minimum_qut ?? 1) : item.minimum || 0)
}

/** Spec section 5: typing above the maximum is clamped to it. */
export function clampQuantity(typed: string, maximum: number): string {
  const digits = typed.replace(/\D/g, '')
  if (!digits) return ''
  const value = Number(digits)
  return String(maximum > 0 && value > maximum ? maximum : value)
}

export interface PlayerCheck {
  verifiedNumber: string | null
}

/** The first problem only (spec section 5), or null when the order may be placed. */
export function firstProblem(
  item: Purchasable,
  kind: FormKind,
  values: OrderValues,
  player: PlayerCheck,
): string | null {
  if (!isFreeFire(item)) {
    const quantity = values.quantity === '' ? 0 : Number(values.quantity)
    const minimum = minimumOf(item, values)
    if (item.target === 'package' && !item.thirdPartyApiId && quantity < 1)
      return t`Quantity must be greater than or equal to 1`
    if (quantity < minimum) return t`Quantity must be greater than or equal to ${minimum}`
    if (item.maximum > 0 && quantity > item.maximum) {
      const maximum = item.maximum
      return t`Quantity must be less than or equal to ${maximum}`
    }
    if (quantity < 1) return t`Quantity must be greater than or equal to 1`
  }
  if (kind === 'requirements')
    for (const { name, label } of item.requirements)
      if (!values.requirements[name]?.trim()) return t`${label} is required.`
  if (kind === 'social' && !values.social_link.trim()) {
    const label = t`Link`
    return t`${label} is required.`
  }
  if (kind === 'crypto' && !values.wallet_address.trim()) {
    const label = t`Wallet address`
    return t`${label} is required.`
  }
  if (kind === 'standard' && item.isTiktok) {
    if (!values.email_or_phone_number.trim()) {
      const label = t`Email or phone number`
      return t`${label} is required.`
    }
  }
  if (kind === 'standard' && needsPlayerNumber(item)) {
    const number = values.player_number.trim()
    if (item.thirdPartyApiId && !item.requirePlayerNumber) {
      if (!number || number !== player.verifiedNumber) return t`The player number must be correct.`
    } else if (!number) {
      const label = t`Player number`
      return t`${label} is required.`
    }
  }
  return null
}
