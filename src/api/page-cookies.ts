/**
 * The cookies the server picks home's first screen by (docs/api.md, The first screen): the
 * language and whether a session is kept. `value`, or none with null; for a year, or with
 * `untilBrowserCloses` as long as the browser runs. Written only when it differs, and then the
 * service worker, which keeps the page it starts the store with, asks for that page again.
 * Throws where cookies are refused.
 */
export function keepPageCookie(
  name: string,
  value: string | null,
  { untilBrowserCloses = false } = {},
): void {
  const kept =
    document.cookie
      .split('; ')
      .find((cookie) => cookie.startsWith(`${name}=`))
      ?.slice(name.length + 1) ?? null
  if (kept === value) return
  const lifetime = value === null ? '; max-age=0' : untilBrowserCloses ? '' : '; max-age=31536000'
  document.cookie = `${name}=${value ?? ''}; path=/; samesite=lax${lifetime}`
  navigator.serviceWorker?.controller?.postMessage({ type: 'KEEP_PAGE' })
}
