// Imports nothing: src/app/router-early.ts reads it before anything else, and scripts/size.ts.

/**
 * The pages besides home that are shown first without the router, as home is
 * (src/app/first-pages.tsx; docs/architecture.md, The first load): every route's page. Each
 * path as the router matches it, with only the ids its route takes (catalogueId,
 * src/routes/-params.ts); anything else (another spelling, an id the route refuses, an
 * unknown page) is the router's.
 */
export const FIRST_PAGE_PATHS = {
  search: /^\/search$/,
  group: /^\/groups\/(\d{1,10})$/,
  product: /^\/products\/products-[1-7]\/(\d{1,10})$/,
  package: /^\/products\/products-[1-7]\/packages\/(\d{1,10})$/,
  about: /^\/about-us\/?$/,
  contact: /^\/contact-us\/?$/,
  forbidden: /^\/403\/?$/,
  signIn: /^\/sign-in\/?$/,
  signInCode: /^\/sign-in\/code\/?$/,
  signUp: /^\/sign-up\/?$/,
  signUpCode: /^\/sign-up\/code\/?$/,
  forgotPassword: /^\/forget-password\/?$/,
  setPassword: /^\/set-password\/?$/,
  verificationCode: /^\/verification-code\/?$/,
  resetLink: /^\/reset-password\/([^/]+)$/,
  orders: /^\/Orders\/?$/,
  order: /^\/Orders\/(\d{1,10})$/,
  wallet: /^\/wallet\/?$/,
  log: /^\/wallet\/(\d{1,10})$/,
  charges: /^\/shipping-payments\/?$/,
  charge: /^\/shipping-payments\/(\d{1,10})$/,
  charging: /^\/charging-the-wallet\/?$/,
  notifications: /^\/Notifications\/?$/,
  console: /^\/admin\/?$/,
  consoleTopUps: /^\/admin\/top-ups\/?$/,
  consoleUsdt: /^\/admin\/usdt\/?$/,
  consoleSettings: /^\/admin\/settings\/?$/,
  consoleCatalogue: /^\/admin\/catalogue\/?$/,
  consolePromo: /^\/admin\/promo\/?$/,
  consoleSlider: /^\/admin\/slider\/?$/,
  consoleOrders: /^\/admin\/orders\/?$/,
  consoleOrder: /^\/admin\/orders\/(\d{1,10})$/,
  consoleCustomers: /^\/admin\/customers\/?$/,
  consoleCustomer: /^\/admin\/customers\/(\d{1,10})$/,
  consoleAudit: /^\/admin\/audit\/?$/,
} as const

export type FirstPageName = keyof typeof FIRST_PAGE_PATHS

/**
 * The first pages that start, as home does, with only the first part of the catalogue of
 * messages (src/i18n/locale.ts), which the build makes to hold their chunks' messages too
 * (`FIRST_MESSAGES_CHUNKS`, vite.config.ts): the most visited after home, which the server's
 * markup shows first. Any other page waits for the whole catalogue before it renders.
 */
export const FIRST_MESSAGES_PAGES: ReadonlySet<FirstPageName> = new Set(['product', 'package'])

/**
 * Who may open each page, as its route's guard says (src/routes/_guest.tsx, _auth.tsx): the
 * sign-in, sign-up and recovery pages a visitor who is not signed in, a customer's own pages
 * a signed-in customer. For anyone else the router renders the page first, and its guard
 * sends them on.
 */
const SIGNED_IN: Partial<Record<FirstPageName, boolean>> = {
  signIn: false,
  signInCode: false,
  signUp: false,
  signUpCode: false,
  forgotPassword: false,
  setPassword: false,
  verificationCode: false,
  resetLink: false,
  orders: true,
  order: true,
  wallet: true,
  log: true,
  charges: true,
  charge: true,
  charging: true,
  notifications: true,
}

/** The first page at `path` for a visitor `signedIn` or not (for anyone it is for, if unsaid). */
export function firstPageName(path: string, signedIn?: boolean): FirstPageName | undefined {
  return (Object.keys(FIRST_PAGE_PATHS) as FirstPageName[]).find(
    (name) =>
      FIRST_PAGE_PATHS[name].test(path) &&
      (signedIn === undefined || (SIGNED_IN[name] ?? signedIn) === signedIn),
  )
}

/** Whether the first page at `path` is a signed-in customer's own. */
export function needsSignIn(path: string): boolean {
  const name = firstPageName(path)
  return name !== undefined && SIGNED_IN[name] === true
}
