/**
 * Replies a page's first inline script asked for before the storefront's code arrived: a
 * product or package page opened from a link starts its catalogue calls with the page itself
 * instead of after the storefront's script, and so do a signed-in customer's orders and wallet
 * (docs/api.md, The first screen). The script keeps each call's pending response under its
 * absolute URL in `window[EARLY_REPLIES]`, the address it was made for under
 * `EARLY_REPLIES_AT` and the session it sent (empty for none) under `EARLY_REPLIES_TOKEN`.
 */
export const EARLY_REPLIES = '__earlyReplies'
export const EARLY_REPLIES_AT = '#'
export const EARLY_REPLIES_TOKEN = 'token'

/**
 * The signed-in lists asked for early, by address: each call's path and what follows the
 * language in its query, as the storefront asks for the list's first page without filters
 * (src/features/orders/queries.ts, src/features/wallet/queries.ts).
 */
export const EARLY_LISTS: Record<string, [path: string, query: string][]> = {
  '#/Orders': [
    ['orders', '&page=1'],
    ['automated/get/status/bulk', ''],
  ],
  '#/wallet': [['payment-logs', '&page=1']],
}

/** The keys of EARLY_MODULES under which the order form's files are named, and its tabs'. */
export const ORDER_FORM_FILES = 'order-form'
export const SERVICE_TABS_FILES = 'service-tabs'
/**
 * The keys under which a product's page's files are named, and a package's: a link to one
 * followed before the storefront has rendered it asks for them at once, beside the storefront's
 * own start (server/http/first-screen.ts, APP_LOADER).
 */
export const PRODUCT_PAGE_FILES = 'product-page'
export const PACKAGE_PAGE_FILES = 'package-page'
/**
 * Where the page's first script keeps what links the files the page names under some of these
 * keys, a few a task: the page's second script calls it for a product's or package's page
 * followed first (server/http/first-screen.ts).
 */
export const LINK_EARLY_MODULES = '__linkEarlyModules'
/**
 * Where that script keeps what starts a page's early replies (above) for an address: the page's
 * second script calls it for a product's or package's page followed first, so that its replies
 * come with its files rather than after the storefront's script (server/http/first-screen.ts).
 */
export const ASK_EARLY_REPLIES = '__askEarlyReplies'

/**
 * The modules those pages run first, by the same addresses (the page itself, the account bar
 * and bell their first screen comes with, and what takes the screen over:
 * src/app/list-screens.ts), and by language what any page but home waits for before its first
 * render (the whole catalogue of messages and the saved cache's restore, src/main.tsx). The
 * build names their files and styles in the page (an element with id `EARLY_MODULES_ID`,
 * vite.config.ts) and the page's first script preloads the page's and its language's with the
 * list, instead of the storefront's script finding them one import after another. The order
 * form's files are named there too (`ORDER_FORM_FILES`), for the storefront to preload a few at
 * a time before it imports the form (src/ui/preload-listed.ts), and with its tabs'
 * (`SERVICE_TABS_FILES`) for the server to put their styles in a product's or package's first
 * screen that carries the form (server/http/first-screen.ts).
 */
export const EARLY_MODULES: Record<string, string[]> = {
  '#/Orders': [
    'src/features/orders/orders-page.tsx',
    'src/features/auth/account-bar.tsx',
    'src/features/notifications/bell.tsx',
    'src/app/list-screens.ts',
  ],
  '#/wallet': [
    'src/features/wallet/wallet-page.tsx',
    'src/features/auth/account-bar.tsx',
    'src/features/notifications/bell.tsx',
    'src/app/list-screens.ts',
  ],
  [ORDER_FORM_FILES]: ['src/features/ordering/purchase-form.tsx'],
  [SERVICE_TABS_FILES]: ['src/features/ordering/service-tabs.tsx'],
  // Literals, twice: a shared array spread in here would stay in the storefront's entry (the
  // minifier keeps a spread), where this object, unused, is left out.
  [PRODUCT_PAGE_FILES]: [
    'src/features/catalogue/product-page.tsx',
    'src/app/purchase-slots.tsx',
    'src/app/route-screens.ts',
    // The check of its replies, which comes with them.
    'src/api/check-reply.ts',
    'src/contract/catalogue.ts',
  ],
  [PACKAGE_PAGE_FILES]: [
    'src/features/catalogue/package-page.tsx',
    'src/app/purchase-slots.tsx',
    'src/app/route-screens.ts',
    // The check of its replies, which comes with them.
    'src/api/check-reply.ts',
    'src/contract/catalogue.ts',
  ],
  en: ['locales/en/messages.po', 'src/api/persist.ts'],
  ar: ['locales/ar/messages.po', 'src/api/persist.ts'],
}
export const EARLY_MODULES_ID = 'early-modules'
/**
 * The key under which that element lists the storefront's entry and the files it loads first,
 * the entry first: those pages ask for them before their own, which are many and small.
 */
export const EARLY_ENTRY = 'entry'

type Replies = Record<string, Promise<Response> | string | undefined>

const replies = () => (window as unknown as Record<string, Replies | undefined>)[EARLY_REPLIES]

/**
 * The response of a GET of `url` the page's first script made with the same session (`token`,
 * null for none), as a copy the caller may read; undefined when there is none. The reply stays the one every call of `url`
 * gets, whenever it comes, until a call has read it (`settleEarlyReply`): a call cancelled
 * on the way (a page rendered again) and made anew uses it too, so the page never asks twice.
 * Only on the address the script saw: once the customer has moved on, calls go to the network.
 * A call the network refused (offline) is made again.
 */
export function takeEarlyReply(
  url: string,
  init: RequestInit,
  token: string | null,
): Promise<Response> | undefined {
  const kept = replies()
  if (!kept) return undefined
  if (
    kept[EARLY_REPLIES_AT] !== window.location.hash ||
    (kept[EARLY_REPLIES_TOKEN] ?? '') !== (token ?? '')
  ) {
    delete (window as unknown as Record<string, unknown>)[EARLY_REPLIES]
    return undefined
  }
  const reply = kept[url]
  if (typeof reply !== 'object') return undefined
  return reply.then(
    (response) => response.clone(),
    () => {
      settleEarlyReply(url)
      return fetch(url, init)
    },
  )
}

/** A call has read the early reply of `url`: the next call of it goes to the network. */
export function settleEarlyReply(url: string): void {
  delete replies()?.[url]
}
