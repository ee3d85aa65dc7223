/**
 * The last page the server sent with home's first screen (docs/api.md, The first screen), kept
 * so that the worker can open the store with it, offline too: home paints from the page before
 * any script runs. A page is usable only while every script it names is in this release's
 * precache: after an update it is dropped until the next one is fetched.
 */
export const PAGE_CACHE = 'first-screen-page'
export const PAGE_URL = '/'

/** The scripts a page with the first screen asks for after its first paint, entry first. */
export function scriptsOf(html: string): string[] {
  const preloads = /<template id="app-preloads">(.*?)<\/template>/s.exec(html)?.[1] ?? ''
  return [...preloads.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g)].map(
    (match) => match[1]!,
  )
}

/** A page is kept only when it carries the first screen and all its scripts are precached. */
export function isUsable(html: string, isPrecached: (url: string) => boolean): boolean {
  const scripts = scriptsOf(html)
  return scripts.length > 0 && scripts.every(isPrecached)
}
