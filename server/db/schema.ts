import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { Currency, UserType } from '../../src/contract/profile'
import type { Locale } from '../../src/contract/common'
import type { NotificationSubjectKind } from '../../src/contract/notifications'
import type { OrderStatus } from '../../src/contract/orders'
import type { WalletLogStatus } from '../../src/contract/wallet'
import type { CatalogueDatabase } from './schema-catalogue'
import type { WalletDatabase } from './schema-wallet'
import type { FulfilmentDatabase } from './schema-fulfilment'
import type { ConsoleDatabase, OperatorTable } from './schema-console'
import type { PushJobColumns } from './schema-push'

export type { UpstreamState } from './schema-fulfilment'

// The enums are the contract's: the database holds exactly what the API speaks.
export type { OrderStatus, UserType, WalletLogStatus }
export type CurrencyCode = Currency
export type LocaleCode = Locale

/*
 * Table types. Conventions every later table follows too:
 * - ids are integers the database generates (SQLite rowid / PostgreSQL identity);
 * - times are ISO-8601 UTC text written by the server (`new Date().toISOString()`), so they
 *   read the same on both databases and compare correctly as strings;
 * - flags are integers 0/1, because SQLite has no boolean type;
 * - money is integer micro-units in a bigint column; the ledger amounts (balances, wallet
 *   history, order prices: db/bigint.ts) are read as JS bigint, other integers as numbers.
 */

/** Key-value facts about the database itself (e.g. that the demo seed ran). */
export interface MetaTable {
  key: string
  value: string
}

/**
 * Singleton row (id = 1): a counter that database triggers move on at every write to the
 * catalogue or the site content, whoever makes it (migration 0011_content_version).
 */
export interface ContentVersionTable {
  id: number
  version: number
}

/** Singleton row (id = 1): the site's look, served by GET website/info. */
export interface WebsiteInfoTable {
  id: number
  primary_color: string
  secondary_color: string
  logo_url: string | null
  logo_width: number | null
  logo_mobile_width: number | null
  icon_url: string | null
  website_name: string
  body_bg_image: string | null
  footer_bg_image: string | null
  updated_at: string
}

export interface SliderImageTable {
  id: Generated<number>
  image: string
  position: Generated<number>
  created_at: string
}

/** Singleton row (id = 1). The text may hold simple HTML; the storefront sanitises it. */
export interface AboutUsTable {
  id: number
  text_en: string
  text_ar: string
  updated_at: string
}

export interface AboutImageTable {
  id: Generated<number>
  image: string
  position: Generated<number>
  created_at: string
}

/** Singleton row (id = 1). */
export interface ContactInfoTable {
  id: number
  email: string | null
  first_phone_number: string | null
  second_phone_number: string | null
  facebook: string | null
  instagram: string | null
  whatsapp: string | null
  tiktok: string | null
  updated_at: string
}

/** Contact-form messages from visitors. */
export interface MessageTable {
  id: Generated<number>
  name: string
  phone_number: string
  message: string
  locale: string
  ip: string | null
  created_at: string
}

/** Server settings kept in the database, e.g. the generated verification-code key. */
export interface SettingTable {
  key: string
  value: string
}

export interface UserTable {
  id: Generated<number>
  /**
   * As typed at sign-up; `username_key` (NFKC, lower case, confusable skeleton: see
   * core/username-key.ts) is what must be unique.
   */
  username: string
  username_key: string
  /** E.164. */
  phone_number: string
  /** Lower case. Null only for operator-created accounts. */
  email: string | null
  /** scrypt, self-describing: see services/passwords.ts. */
  password_hash: string
  type: UserType
  currency: CurrencyCode
  locale: LocaleCode
  /** Micro-units of `currency`; the database refuses a negative balance. */
  balance: Generated<bigint>
  new_notifications_count: Generated<number>
  /**
   * The API token (the token dialog, POST user/token), sealed with the server's key
   * (services/api-tokens.ts): never the token in clear. `api_token_hash` is its SHA-256 (hex),
   * unique, by which a call made with the token finds the account; null (the default) until
   * a token is saved.
   */
  api_token: string | null
  api_token_hash: Generated<string | null>
  /** Where the API token may be used from: one address or CIDR range a line, normalised. */
  ip_whitelist: string | null
  created_at: string
  /** Set by an operator (users:disable): no sign-in, no session. */
  disabled_at: string | null
}

/** A signed-in device. The client holds the token; only its SHA-256 is kept. */
export interface SessionTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  fcm_token: string | null
  /** When the browser last gave the push token (tokens unused for 30 days are dropped). */
  fcm_token_at: string | null
  created_at: string
  last_used_at: string
  revoked_at: string | null
}

export type CodePurpose = 'signup' | 'login' | 'reset'

/** Every code sent; the rows double as the send log the hourly caps count. */
export interface VerificationCodeTable {
  id: Generated<number>
  purpose: CodePurpose
  /** E.164 phone or lower-case e-mail. */
  recipient: string
  /** HMAC-SHA256 of purpose, recipient and code. */
  code_hash: string
  ip: string | null
  /** Wrong tries at this code. */
  attempts: Generated<number>
  created_at: string
  expires_at: string
  consumed_at: string | null
}

/**
 * The row a transaction locks to count one key's attempts alone, on any instance: a recipient
 * (its sends and wrong codes), an address (`ip:...`), a sign-in identity or address
 * (`login:...`), the store's code budget (`budget:codes`). The failures themselves are rows of
 * `auth_failures`; `failures` and `locked_until` are no longer written (before migration 0005
 * they held the counts).
 */
export interface CodeThrottleTable {
  key: string
  failures: Generated<number>
  locked_until: string | null
  updated_at: string
}

/** Messages the local sender "delivered": read through GET /api/dev/outbox in development. */
/** A password-reset link's token, kept as its SHA-256 (hex); used once, before it expires. */
export interface ResetLinkTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  created_at: string
  expires_at: string
  used_at: string | null
}

export interface OutboxTable {
  id: Generated<number>
  channel: 'whatsapp' | 'email'
  recipient: string
  purpose: string
  code: string | null
  body: string
  created_at: string
  /** The request or operator command that made it (its log lines' requestId). */
  request_id: string | null
  /** The console request's address key; null for the CLI (migration 0022_audit_address). */
  address: string | null
}

/** What an operator did (users:disable, sessions:revoke, ...), one row per command. */
export interface AuditLogTable {
  id: Generated<number>
  /** Who ran the command: OPERATOR from the environment, else the system user name. */
  actor: string
  action: string
  user_id: number | null
  username: string | null
  /** JSON. */
  details: string
  created_at: string
  /** The request or operator command that made it (its log lines' requestId). */
  request_id: string | null
  /** The console request's address key; null for the CLI (migration 0022_audit_address). */
  address: string | null
}

/**
 * One failed sign-in (a wrong password) or one wrong code. Counted over sliding windows per
 * identity, per address, and per both (see services/attempts.ts).
 */
export interface AuthFailureTable {
  id: Generated<number>
  kind: 'login' | 'code'
  identity: string
  /** The client address (IPv6 by its /64), '' when unknown. */
  address: string
  /** 0/1: a later success from the same address cleared it for that address. */
  cleared: Generated<number>
  created_at: string
}

/** Fixed-window request counters of the rate limits (services/rate-limit.ts). */
export interface RateLimitTable {
  key: string
  window_start: string
  hits: number
}

/** The wallet's history (GET /api/payment-logs). Amounts in micro-units of `currency`. */
export interface WalletLogTable {
  id: Generated<number>
  user_id: number
  status: WalletLogStatus
  /** In English, or the one text of a line said in every language (an operator's reason). */
  name: string
  /** In Arabic; null where `name` is said in every language, or for lines written before. */
  name_ar: string | null
  previous_balance: bigint
  value: bigint
  current_balance: bigint
  currency: CurrencyCode
  created_at: string
}

/**
 * An order. What was bought is a snapshot: `catalogue:import` deletes and re-inserts the
 * catalogue, so product_id and package_id are plain numbers, not foreign keys, and the names,
 * image and prices are copied. Prices are micro-units of `currency`, the wallet's currency
 * when the order was placed.
 */
export interface OrderTable {
  id: Generated<number>
  user_id: number
  product_id: number
  package_id: number | null
  /** The product's page kind (1 to 7). */
  number: number
  product_name_en: string
  product_name_ar: string
  package_name_en: string | null
  package_name_ar: string | null
  product_image: string | null
  product_reference: string | null
  /** The provider's id of the package, for the provider adapter. */
  provider_package_id: number | null
  quantity: number
  unit_price: bigint
  total_price: bigint
  currency: CurrencyCode
  status: OrderStatus
  refuse_reason: string | null
  accept_note: string | null
  /** JSON: [{code}]. */
  item_codes: string
  expiry_date: string | null
  player_name: string | null
  player_number: string | null
  service_type: string | null
  social_link: string | null
  wallet_address: string | null
  email_or_phone_number: string | null
  password: string | null
  contact_number: string | null
  /** JSON: [{name, label_en, label_ar, value}] of the item's requirement fields. */
  requirements: string
  /** The provider's reference once it took the order. */
  provider_ref: string | null
  created_at: string
  updated_at: string
}

/**
 * One per (user, Idempotency-Key) of an order call: the first reply, given again to a repeat
 * of the same request. Written in the order's transaction, so it exists only for an order that
 * was placed.
 */
export interface IdempotencyKeyTable {
  user_id: number
  key: string
  /** SHA-256 of the normalised request. */
  request_hash: string
  order_id: number | null
  /** The reply's JSON. */
  reply: string | null
  created_at: string
}

/**
 * A notification. `message` and its `message_values` (JSON) say it in the reader's language
 * when it is read; `title` and `description` are its words in the user's language when it was
 * made, all a row made before messages has (migration 0014_notification_messages).
 */
export interface NotificationTable {
  id: Generated<number>
  user_id: number
  title: string
  description: string
  created_at: string
  read_at: string | null
  /** `order_completed`...: the server messages `notification.<message>.title` and `.body`. */
  message: string | null
  message_values: string | null
  /** What it is about (`order` 12, `top-up` 5, `wallet`): the storefront's page for it. */
  subject_kind: NotificationSubjectKind | null
  subject_id: number | null
}

/** Player numbers a user looked up successfully, per product (GET player_number/info). */
export interface PlayerNumberTable {
  id: Generated<number>
  user_id: number
  product_id: number
  player_number: string
  player_name: string
  verified_at: string
}

/** A customer's push (services/notifications.ts). */
export interface PushJobTable extends PushJobColumns {
  user_id: number
}

/** What the local push sender "delivered" (development and tests: GET /api/dev/push). */
export interface PushOutboxTable {
  id: Generated<number>
  user_id: number
  token: string
  message: string
  created_at: string
}

export interface Database
  extends CatalogueDatabase, WalletDatabase, FulfilmentDatabase, ConsoleDatabase {
  meta: MetaTable
  content_version: ContentVersionTable
  settings: SettingTable
  users: UserTable
  sessions: SessionTable
  verification_codes: VerificationCodeTable
  code_throttle: CodeThrottleTable
  reset_links: ResetLinkTable
  audit_log: AuditLogTable
  auth_failures: AuthFailureTable
  rate_limits: RateLimitTable
  outbox: OutboxTable
  wallet_logs: WalletLogTable
  website_info: WebsiteInfoTable
  slider_images: SliderImageTable
  about_us: AboutUsTable
  about_images: AboutImageTable
  contact_info: ContactInfoTable
  messages: MessageTable
  orders: OrderTable
  idempotency_keys: IdempotencyKeyTable
  notifications: NotificationTable
  push_jobs: PushJobTable
  push_outbox: PushOutboxTable
  player_numbers: PlayerNumberTable
}

export type WebsiteInfoRow = Selectable<WebsiteInfoTable>
export type NewMessage = Insertable<MessageTable>
export type MessageRow = Selectable<MessageTable>
export type ContactInfoUpdate = Updateable<ContactInfoTable>
export type UserRow = Selectable<UserTable>
export type OperatorRow = Selectable<OperatorTable>
export type NewUser = Insertable<UserTable>
export type WalletLogRow = Selectable<WalletLogTable>
export type OrderRow = Selectable<OrderTable>
export type NotificationRow = Selectable<NotificationTable>
