import { useLingui } from '@lingui/react/macro'
import { methodEntry, type ChargingMethod } from '../contract/payment-methods'

/** A top-up method's name in the page's language (its label in src/contract/payment-methods.ts). */
export function useMethodName() {
  const { i18n } = useLingui()
  return (method: ChargingMethod) => i18n._(methodEntry(method).label)
}
