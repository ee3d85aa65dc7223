import { t } from '@lingui/core/macro'
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH } from '../../contract/constants'
import type { CountryCode } from 'libphonenumber-js/min'
import type * as PhoneNumbers from './phone-numbers'

/** A phone number as the form holds it: the country chosen and the digits typed. */
export interface PhoneValue {
  country: CountryCode
  number: string
}

let phoneNumbers: Promise<typeof PhoneNumbers> | undefined
/** The phone-number rules, loaded once (./phone-numbers.ts); a failed load is tried again. */
export function loadPhoneNumbers(): Promise<typeof PhoneNumbers> {
  phoneNumbers ??= import('./phone-numbers').catch((error: unknown) => {
    phoneNumbers = undefined
    throw error
  })
  return phoneNumbers
}

/** A form's first problem (a form shows one at a time), in the user's language. */
export interface Problem {
  field: string
  message: string
}

export function passwordProblem(password: string): Problem | null {
  return password.length < PASSWORD_MIN_LENGTH
    ? { field: 'password', message: t`Password must be at least 8 characters long` }
    : null
}

/** The phone in E.164, or the problem with it. */
export async function phoneProblem(phone: PhoneValue): Promise<Problem | string> {
  if (!phone.number.trim())
    return { field: 'phone_number', message: t`Phone number field is required` }
  const rules = await loadPhoneNumbers().catch(() => null)
  // Offline before the service worker kept the rules: the form could not be sent anyway.
  if (!rules)
    return { field: 'form', message: t`You are offline. Connect to the internet to send this.` }
  return (
    rules.normalisePhone(phone.number, phone.country) ?? {
      field: 'phone_number',
      message: t`The phone number is not valid`,
    }
  )
}

export function emailProblem(email: string): Problem | null {
  if (!email.trim()) return { field: 'email', message: t`Email field is required` }
  if (!EMAIL_PATTERN.test(email.trim())) return { field: 'email', message: t`Invalid email format` }
  return null
}

export function confirmationProblem(password: string, confirmation: string): Problem | null {
  return password === confirmation
    ? null
    : { field: 'password_confirmation', message: t`The password confirmation does not match` }
}
