import type { Locale } from '../../src/contract/common'
export type Channel = 'whatsapp' | 'email'

/** A verification code on its way to a person. */
export interface OutgoingCode {
  channel: Channel
  /** E.164 phone (whatsapp) or e-mail address. */
  to: string
  purpose: string
  code: string
  /** Language of the words around the code. */
  locale: Locale
  /** The whole text, for senders that write their own words (e-mail, the outbox). */
  body: string
  subject: string
}

/** A security notice to an account's owner (wrong codes paused the account's codes). */
export interface OutgoingNotice {
  channel: Channel
  to: string
  locale: Locale
  subject: string
  body: string
  /** Until when codes are paused (the WhatsApp template's parameter). */
  until: string
}

export interface Sender {
  /** Which implementation this is; `outbox` is the local one for development and tests. */
  readonly kind: 'whatsapp' | 'smtp' | 'outbox'
  send(message: OutgoingCode): Promise<void>
  /** Absent when the sender cannot carry free words (WhatsApp without a notice template). */
  notify?(notice: OutgoingNotice): Promise<void>
}

/** How codes leave the server: one sender per channel. */
export interface Delivery {
  phone: Sender
  email: Sender
}

/** The channels whose codes stay in the local outbox (no real sender configured for them). */
export function outboxChannels(delivery: Delivery): Channel[] {
  const channels: Channel[] = []
  if (delivery.phone.kind === 'outbox') channels.push('whatsapp')
  if (delivery.email.kind === 'outbox') channels.push('email')
  return channels
}

/** A sender could not hand the message over; the caller tells the user to try again. */
export class DeliveryError extends Error {
  override name = 'DeliveryError'
}
