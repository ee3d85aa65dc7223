/**
 * The page a notification click opens. The payload comes from the push sender, so its URL is
 * only a wish: a page of this site is opened, anything else (another site, `javascript:`,
 * `data:`) falls back to the home page, so a push can never send the customer elsewhere.
 */
export function notificationTarget(url: unknown, origin: string): string {
  const home = new URL('/', origin).href
  if (typeof url !== 'string' || url.trim() === '') return home
  try {
    const target = new URL(url, origin)
    return target.origin === origin ? target.href : home
  } catch {
    return home
  }
}
