import { createHash } from 'node:crypto'
import unhomoglyph from 'unhomoglyph'

/**
 * The UTS #39 skeleton of a string: decomposed (NFD), each character replaced by its prototype
 * from Unicode's confusables table, decomposed again. Two strings that look alike ("раураl"
 * in Cyrillic and "paypal", "rn" and "m") have the same skeleton. A skeleton is for comparing,
 * never for showing. The table comes from `unhomoglyph`, pinned to one version: a newer table
 * would give some stored keys a different value.
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD')
}

/** The unique column is varchar(200); a longer key (rare: NFKC expands ligatures) is hashed. */
const MAX_KEY_LENGTH = 200

/**
 * What makes two usernames "the same": compatibility forms (NFKC: full-width letters,
 * ligatures), case, and characters that look alike. Lower case first, so that case stays
 * irrelevant (a skeleton alone tells "I" from "i"); then the skeleton, and lower case again
 * until nothing changes, because some prototypes are capitals (a zero's is "O").
 */
export function usernameKey(username: string): string {
  let key = username.normalize('NFKC').toLowerCase()
  for (let i = 0; i < 4; i++) {
    const next = skeleton(key).toLowerCase()
    if (next === key) break
    key = next
  }
  return key.length > MAX_KEY_LENGTH
    ? `sha256:${createHash('sha256').update(key).digest('hex')}`
    : key
}
