// Imports nothing: src/app/router-early.ts reads it before anything else, and scripts/size.ts.

/**
 * The pages besides home that are shown first without the router, as home is
 * (src/app/first-pages.tsx; docs/architecture.md, The first load): a search's results and a
 * group, which shared links open. Each path as the router matches it, with only the ids its
 * route takes (catalogueId, src/routes/-params.ts); anything else is the router's.
 */
export const FIRST_PAGE_PATHS = {
  search: /^\/search$/,
  group: /^\/groups\/(\d{1,10})$/,
} as const

export function hasFirstPage(path: string): boolean {
  return Object.values(FIRST_PAGE_PATHS).some((pattern) => pattern.test(path))
}
