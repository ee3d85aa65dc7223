import { t } from '@lingui/core/macro'
import {
  API_TOKEN_ALPHABET,
  API_TOKEN_PREFIX,
  API_TOKEN_RANDOM_LENGTH,
  API_TOKEN_SEPARATOR,
} from '../../contract/token'
import type { WhitelistProblem } from '../../domain/ip-whitelist'

/** The largest multiple of the alphabet's size in a byte: bytes from here on are drawn again. */
const UNBIASED_BELOW = 256 - (256 % API_TOKEN_ALPHABET.length)

type RandomSource = (bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>

/**
 * A new API token: the fixed prefix and separator, then 40 letters or digits drawn from the
 * browser's cryptographic generator (about 238 bits). A byte is used only below the largest
 * multiple of 62, so every character is equally likely.
 */
export function newApiToken(
  random: RandomSource = (bytes) => crypto.getRandomValues(bytes),
): string {
  let text = ''
  while (text.length < API_TOKEN_RANDOM_LENGTH) {
    for (const byte of random(new Uint8Array(API_TOKEN_RANDOM_LENGTH))) {
      if (byte < UNBIASED_BELOW && text.length < API_TOKEN_RANDOM_LENGTH)
        text += API_TOKEN_ALPHABET[byte % API_TOKEN_ALPHABET.length]
    }
  }
  return `${API_TOKEN_PREFIX}${API_TOKEN_SEPARATOR}${text}`
}

/** What is wrong with the whitelist, in the customer's language. */
export function whitelistMessage(problem: WhitelistProblem): string {
  if (problem.kind === 'too_many') {
    const { max } = problem
    return t`Enter at most ${max} addresses.`
  }
  if (problem.kind === 'everyone')
    return t`These lines let every address use the token. Enter only your servers' addresses.`
  const { line } = problem
  const typed = problem.text.length > 40 ? `${problem.text.slice(0, 40)}…` : problem.text
  // Isolated, so an address keeps its left-to-right order inside an Arabic sentence.
  const text = `\u2068${typed}\u2069`
  return t`Line ${line}: “${text}” is not an IPv4 or IPv6 address or range.`
}
