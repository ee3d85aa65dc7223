// Imports nothing: src/app/router-early.ts reads it before anything else, and scripts/size.ts.

/**
 * The pages besides home that are shown first without the router, as home is
 * (src/app/first-pages.tsx; docs/architecture.md, The first load): those shared links and
 * customers open first. Each path as the router matches it, with only the ids its route takes
 * (catalogueId, src/routes/-params.ts); anything else is the router's.
 */
export const FIRST_PAGE_PATHS = {
  search: /^\/search$/,
  group: /^\/groups\/(\d{1,10})$/,
  signIn: /^\/sign-in\/?$/,
  signUp: /^\/sign-up\/?$/,
  orders: /^\/Orders\/?$/,
  wallet: /^\/wallet\/?$/,
} as const

/**
 * Who may open each page, as its route's guard says (src/routes/_guest.tsx, _auth.tsx): sign-in
 * and sign-up a visitor who is not signed in, the orders and the wallet a signed-in customer.
 * For anyone else the router renders the page first, and its guard sends them on.
 */
const SIGNED_IN: Partial<Record<keyof typeof FIRST_PAGE_PATHS, boolean>> = {
  signIn: false,
  signUp: false,
  orders: true,
  wallet: true,
}

/** The first page at `path` for a visitor `signedIn` or not (for anyone it is for, if unsaid). */
export function firstPageName(
  path: string,
  signedIn?: boolean,
): keyof typeof FIRST_PAGE_PATHS | undefined {
  return (Object.keys(FIRST_PAGE_PATHS) as (keyof typeof FIRST_PAGE_PATHS)[]).find(
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
