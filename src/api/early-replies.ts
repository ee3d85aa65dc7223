/**
 * Replies a page's first inline script asked for before the storefront's code arrived: a
 * product or package page opened from a link starts its catalogue calls with the page itself
 * instead of after the storefront's script (docs/api.md, The first screen). The script keeps
 * each call's pending response under its absolute URL in `window[EARLY_REPLIES]`.
 */
export const EARLY_REPLIES = '__earlyReplies'

/** Only for the calls of the page's first route: after this, a call goes to the network. */
const EARLY_REPLY_MS = 10_000

/**
 * The pending response of an anonymous GET of `url` the page's first script made, once: the
 * caller reads its body. Undefined when there is none or the page is older than that.
 */
export function takeEarlyReply(url: string): Promise<Response> | undefined {
  const replies = (window as unknown as Record<string, unknown>)[EARLY_REPLIES] as
    Record<string, Promise<Response> | undefined> | undefined
  const reply = replies?.[url]
  if (!reply) return undefined
  delete replies[url]
  return performance.now() < EARLY_REPLY_MS ? reply : undefined
}
