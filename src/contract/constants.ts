/**
 * The contract's plain values the first load uses, apart from the schemas (which come with
 * valibot and the first API reply): the list filters the routes check a link's search with,
 * home's page step, and where the page carries the first screen.
 */

/** The account forms' bounds: the storefront says them before sending, the server enforces them. */
export const VERIFICATION_CODE_LENGTH = 4
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const USERNAME_MAX_LENGTH = 50
export const EMAIL_MAX_LENGTH = 254

/** Bounds of the contact form, shared by the form and the server. */
export const MESSAGE_LIMITS = { name: 100, phone_number: 32, message: 2000 } as const

/** A simple pattern on purpose: name@host.tld, without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const CODE_PATTERN = /^\d{4}$/

/** The wallet history's two kinds of line: money out (red) and money in (green). */
export const WALLET_LOG_STATUSES = ['Discounted', 'Charged'] as const

/** Bounds of a receipt photo: the storefront says them before upload, the server enforces them. */
export const RECEIPT_MAX_BYTES = 8 * 1024 * 1024
export const RECEIPT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** The smallest top-up by USDT. */
export const USDT_MIN = 1

/** The longest reason an operator may give for refusing a top-up (docs/api.md, Console). */
export const REJECT_REASON_MAX_LENGTH = 300

/** An order's states; FAILED: the provider refused it, an operator decides (docs/api.md). */
export const ORDER_STATUSES = ['WAITING', 'COMPLETED', 'CANCELED', 'FAILED'] as const

/** What an operator's completion takes (docs/api.md, Console): codes, each code, the note. */
export const CODES_MAX = 100
export const CODE_MAX_LENGTH = 200
export const NOTE_MAX_LENGTH = 500

/** The notification popup shows at most this many. */
export const POPUP_NOTIFICATIONS = 2

/** Order list filters; 2000-01-01 marks a specific-date range. */
export const DATE_RANGE_MARK = '2000-01-01'
export const ORDER_FILTER_STATUSES = ['COMPLETED', 'CANCELED', 'WAITING'] as const

/**
 * What each of the user's lists may be sorted by (`sort_by`: its reply's field names; `date`
 * is when the row was made) and its `state` filter where it has one (docs/api.md, Lists).
 */
export const LIST_SORTS = {
  orders: ['date', 'id', 'total_price', 'quantity'],
  paymentLogs: ['date', 'id', 'value'],
  charges: ['date', 'id', 'value'],
  notifications: ['date', 'id'],
} as const
export const SORT_VALUES = ['asc', 'desc'] as const
export type SortValue = (typeof SORT_VALUES)[number]
export const CHARGE_STATES = ['WAITING', 'COMPLETED', 'CANCELED'] as const
export const NOTIFICATION_STATES = ['unread', 'read'] as const

/** What a notification can be about (docs/api.md, Notifications). */
export const NOTIFICATION_SUBJECT_KINDS = ['order', 'top-up', 'wallet'] as const

/** Page sizes the catalogue accepts (the home grid's infinite scroll grows by 15). */
export const PAGE_STEP = 15
export const MAX_PER_PAGE = 300

/** The id of the script element that carries the first screen's replies in the page. */
export const FIRST_SCREEN_ID = 'first-screen'

/**
 * Where the page's first script keeps the presses on the server's markup's buttons made before
 * the storefront took it over (an array, set to null once they are pressed again).
 */
export const FIRST_SCREEN_PRESSES = '__firstScreenPresses'

/**
 * Where the page's first script keeps the browser's offer to install the store (Chromium's
 * `beforeinstallprompt`), which may come before the storefront's script runs.
 */
export const INSTALL_OFFER = '__installOffer'

/**
 * The `elementtiming` name of a page's main picture (home's first slide, a product's or
 * package's picture): the page's second script waits for the browser to report it painted
 * before asking for the storefront's script.
 */
export const FIRST_PICTURE = 'first-picture'

/**
 * What tells that the customer has started using the page: the page's loader starts the
 * storefront at the first (server/http/first-screen.ts), and home's storefront loads the router
 * (src/main.tsx). Each adds `scroll` its own way.
 */
export const FIRST_USE_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'focusin',
  'wheel',
] as const

/** A transaction hash as a wallet or explorer shows it: 64 hex digits, 0x first on BEP20. */
export const TX_HASH_PATTERN = /^(0x)?[0-9a-fA-F]{64}$/
