import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { ServiceUnavailableError } from '../core/errors'
import { boundedQueue } from './queue'

export interface ScryptParams {
  /** log2 of the cost N. */
  ln: number
  r: number
  p: number
}

/** OWASP's scrypt recommendation: N = 2^17, r = 8, p = 1 (128 MiB per hash). */
export const OWASP_SCRYPT: ScryptParams = { ln: 17, r: 8, p: 1 }

/** The configured cost (PASSWORD_HASH_COST) with OWASP's r and p. */
export const scryptWithCost = (ln: number): ScryptParams => ({ ...OWASP_SCRYPT, ln })

const KEY_LENGTH = 64
const SALT_LENGTH = 16
// Refuse stored parameters beyond these: a tampered row must not make us allocate gigabytes.
const LIMITS: ScryptParams = { ln: 20, r: 16, p: 4 }

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln
  const options: ScryptOptions = {
    N,
    r: params.r,
    p: params.p,
    // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below OWASP's 128 MiB.
    maxmem: 256 * N * params.r,
  }
  return new Promise((resolve, reject) =>
    // NFC, so the same password typed on two keyboards (Arabic has several) matches.
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

const b64 = (buf: Buffer) => buf.toString('base64').replace(/=+$/, '')

interface Parsed {
  params: ScryptParams
  salt: Buffer
  hash: Buffer
}

/** `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (PHC string format, base64 without padding). */
function parse(stored: string): Parsed | null {
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
    stored,
  )
  if (!match) return null
  const [ln, r, p] = [match[1], match[2], match[3]].map(Number) as [number, number, number]
  if (ln < 1 || ln > LIMITS.ln || r < 1 || r > LIMITS.r || p < 1 || p > LIMITS.p) return null
  return {
    params: { ln, r, p },
    salt: Buffer.from(match[4]!, 'base64'),
    hash: Buffer.from(match[5]!, 'base64'),
  }
}

/**
 * How many hashes run at once, and how many may wait. scrypt runs on libuv's thread pool (4
 * threads), which file reads share: with every thread hashing at 128 MiB, static files and
 * everything else that reads a file waited behind 40 sign-ins for half a minute. Two at a time
 * leave the pool's other threads to the files, and a full queue answers 503 at once.
 */
export const HASH_QUEUE = { concurrency: 2, waiting: 100, retryAfterSeconds: 5 }

/**
 * Password hashing with scrypt from node:crypto. The parameters are part of the stored
 * string, so raising them later still verifies old hashes (and `needsRehash` says when to
 * upgrade one). Tests use cheaper parameters; the server uses OWASP's. Every hash goes through
 * one queue (services/queue.ts) that runs at most HASH_QUEUE.concurrency at once.
 */
export class PasswordHasher {
  #dummy: Promise<string> | undefined
  readonly #queue: ReturnType<typeof boundedQueue>

  constructor(
    readonly params: ScryptParams = OWASP_SCRYPT,
    queue: { concurrency: number; waiting: number } = HASH_QUEUE,
  ) {
    this.#queue = boundedQueue({
      ...queue,
      busy: () => new ServiceUnavailableError('auth.busy', HASH_QUEUE.retryAfterSeconds),
    })
  }

  /** `derive` in its turn; 503 when too many are waiting already. */
  #derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
    return this.#queue(() => derive(password, salt, params))
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH)
    const key = await this.#derive(password, salt, this.params)
    const { ln, r, p } = this.params
    return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parsed = parse(stored)
    if (!parsed) return false
    const key = await this.#derive(password, parsed.salt, parsed.params)
    return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash)
  }

  /**
   * Makes the hash `verifyNobody` checks against. The server calls it at start: made lazily,
   * the first unknown user's sign-in would cost two hashes, and timing would tell.
   */
  prepare(): Promise<void> {
    this.#dummy ??= this.hash('not a password anyone has')
    return this.#dummy.then(() => undefined)
  }

  /**
   * The same work as `verify`, for a user who does not exist: the reply then takes as long as
   * for a wrong password, so timing does not tell which usernames are taken.
   */
  async verifyNobody(password: string): Promise<false> {
    await this.prepare()
    await this.verify(password, await this.#dummy!)
    return false
  }

  needsRehash(stored: string): boolean {
    const parsed = parse(stored)
    if (!parsed) return true
    const { ln, r, p } = parsed.params
    return ln < this.params.ln || r < this.params.r || p < this.params.p
  }
}
