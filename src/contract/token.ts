import * as v from 'valibot'

/*
 * The API token (the profile's token dialog, POST user/token). The storefront makes the token,
 * the server checks its shape, keeps its SHA-256 to find it and an encrypted copy to show it
 * again. Session tokens (43 base64url characters) never contain the separator, so the two
 * kinds are told apart by shape before anything is looked up.
 */

/** The fixed start of every API token, then the separator, then the random part. */
export const API_TOKEN_PREFIX = '4412'
export const API_TOKEN_SEPARATOR = '|'
/** Letters and digits only: any SMM panel's key field takes them, in a form or a URL. */
export const API_TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** 40 characters of 62: about 238 bits. */
export const API_TOKEN_RANDOM_LENGTH = 40
export const API_TOKEN_PATTERN = /^4412\|[A-Za-z0-9]{40}$/

export const isApiToken = (text: string) => API_TOKEN_PATTERN.test(text)

/**
 * Whether a token's random part looks drawn at random: at least 15 different characters of
 * its 40, and fewer than 16 neighbours that repeat or follow each other (`aa`, `ab`, `ba`).
 * A token drawn as the dialog draws it fails either with a chance below 10^-10; `4412|AAAA…`,
 * `abab…` or the alphabet in order fail both.
 */
export function looksRandom(token: string): boolean {
  const random = token.slice(token.indexOf(API_TOKEN_SEPARATOR) + 1)
  let neighbours = 0
  for (let i = 1; i < random.length; i++)
    if (Math.abs(random.charCodeAt(i) - random.charCodeAt(i - 1)) <= 1) neighbours++
  return new Set(random).size >= 15 && neighbours < 16
}

/** At most this many addresses and ranges, one a line. */
export const IP_WHITELIST_MAX_LINES = 100
/** The whole text as sent: 100 lines of the longest IPv6 range with room for spaces. */
export const IP_WHITELIST_MAX_LENGTH = 6000

// ---- requests -------------------------------------------------------------------------------

/**
 * POST user/token. The whitelist's lines are checked one by one with the rule in
 * `src/domain/ip-whitelist.ts`, which names the line that is wrong; here only its size.
 */
export const ApiTokenPayloadSchema = v.object({
  token: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.regex(API_TOKEN_PATTERN),
    v.check(looksRandom),
  ),
  ip_whitelist: v.optional(v.pipe(v.string(), v.maxLength(IP_WHITELIST_MAX_LENGTH)), ''),
})
export type ApiTokenPayload = v.InferOutput<typeof ApiTokenPayloadSchema>

// ---- replies --------------------------------------------------------------------------------

/** POST user/token: what was saved, the whitelist one normalised address or range a line. */
export const ApiTokenReplySchema = v.object({
  message: v.string(),
  data: v.object({ token: v.string(), ip_whitelist: v.string() }),
})
export type ApiTokenReply = v.InferOutput<typeof ApiTokenReplySchema>
