/**
 * Where the storefront keeps the customer's language and session in the browser's storage.
 * The server reads the names too: its first screen of home steps aside for a page that will
 * not show it (docs/api.md, The first screen).
 */
export const LANGUAGE_KEY = 'language'
/** localStorage, or sessionStorage without "remember me". */
export const TOKEN_KEY = 'token'
/**
 * A cookie the storefront keeps equal to the stored language, so the server can send home's
 * first screen in it.
 */
export const LANGUAGE_COOKIE = 'language'
/**
 * A cookie the storefront keeps while it holds a session (`1`; never the session itself), so
 * the server can send home's first screen with a signed-in customer's bars.
 */
export const SIGNED_IN_COOKIE = 'signed-in'
/**
 * A cookie the server sets (HttpOnly, for 400 days) on every page it sends with home's first
 * screen. A page asked for without it, nor either cookie above, is the browser's first visit:
 * its storage holds nothing of the store yet, so the page's first script does not read it.
 */
export const VISITED_COOKIE = 'visited'
/**
 * localStorage: the device's time zone (an IANA name), which the page's first script sends when
 * it asks for a customer's list rendered by the server, in that zone's dates.
 */
export const TIME_ZONE_KEY = 'time-zone'
