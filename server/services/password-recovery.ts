import { resetLinkPage } from '../../src/contract/auth'
import type { Kysely } from 'kysely'
import type { Database, UserRow } from '../db/schema'
import { forgetIdentityFailures } from './attempts'
import { revokeUserSessions } from './sessions'
import { endResetLinks, lookResetLink, newResetLink, useResetLink } from './reset-links'
import { findUserByEmail } from './users'

/** What the account flows need; the app's request variables carry all of it. */
import {
  failed,
  codeCheck,
  precheckCode,
  sendCode,
  type AuthDeps,
  type DeliveryMode,
  type RequestMeta,
} from './auth-codes'

// ---- password recovery ----------------------------------------------------------------------

/**
 * send/verification-code: the same work and the same reply whether or not the e-mail has an
 * account. A code is made and counted either way; only an account's e-mail gets it, with a
 * reset link (`publicUrl` + the reset page, `resetLinkPage`) that works whatever the code's
 * counters say. While wrong codes pause the e-mail's codes the message still goes, with the
 * link alone, so nobody's wrong codes keep the owner from a reset. Real senders run after the
 * reply, so the SMTP round trip does not show in the timing.
 */
export async function sendResetCode(
  deps: AuthDeps,
  email: string,
  meta: RequestMeta & { publicUrl: string },
): Promise<{ paused: boolean }> {
  const user = await findUserByEmail(deps.db, email)
  const deliver: DeliveryMode = !user
    ? 'none'
    : deps.delivery.email.kind === 'outbox'
      ? 'await'
      : 'background'
  const link = user
    ? async () =>
        meta.publicUrl + resetLinkPage(await newResetLink(deps.db, user.id, deps.clock.now()))
    : undefined
  return sendCode(
    deps,
    { purpose: 'reset', recipient: email, channel: 'email', deliver, link, whenHeld: 'count' },
    meta,
  )
}

/** check/verification-code: looks without using the code up, but wrong tries count. */
export async function checkResetCode(
  deps: AuthDeps,
  email: string,
  code: string,
  meta: Pick<RequestMeta, 'ip'>,
) {
  const { now, verify } = await codeCheck(deps, 'reset', email, code, meta)
  const check = await deps.db.transaction().execute((trx) => verify(trx, { consume: false }))
  if (!check.ok && check.reason === 'locked') throw await failed(deps, check, email, now)
  return check.ok && (await findUserByEmail(deps.db, email)) !== undefined
}

/** reset-password: uses the code, sets the password, signs every device out. */
export async function resetPassword(
  deps: AuthDeps,
  input: { email: string; verification_code: string; password: string },
  meta: Pick<RequestMeta, 'ip'>,
) {
  await precheckCode(deps, 'reset', input.email, input.verification_code, meta)
  const passwordHash = await deps.passwords.hash(input.password)
  const { now, verify } = await codeCheck(deps, 'reset', input.email, input.verification_code, meta)
  const result = await deps.db.transaction().execute(async (trx) => {
    const check = await verify(trx, { consume: true })
    if (!check.ok) return check
    const user = await findUserByEmail(trx, input.email)
    if (!user) return { ok: false as const, reason: 'invalid' as const }
    await newPassword(trx, user, passwordHash, now)
    return { ok: true as const }
  })
  if (!result.ok) throw await failed(deps, result, input.email, now)
}

/**
 * A reset's one outcome, by code or by link: the new password, every device signed out, no
 * earlier link working.
 */
async function newPassword(
  trx: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'phone_number' | 'email'>,
  passwordHash: string,
  now: Date,
) {
  await trx
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', user.id)
    .execute()
  await revokeUserSessions(trx, user.id, now)
  await endResetLinks(trx, user.id, now)
  if (user.email)
    await trx
      .updateTable('verification_codes')
      .set({ consumed_at: now.toISOString() })
      .where('purpose', '=', 'reset')
      .where('recipient', '=', user.email)
      .where('consumed_at', 'is', null)
      .execute()
  // Whoever guessed at the sign-in codes needed the old password: with a new one they
  // cannot go on, so their wrong codes no longer hold the owner's phone.
  await forgetIdentityFailures(trx, 'code', user.phone_number)
}

/**
 * reset-password-link: the e-mailed link's token stands for the code, so the code's counters
 * are not looked at. A cheap look at the token first (no scrypt for a wrong one); using it is
 * the database's once-only UPDATE, in the transaction that sets the password.
 */
export async function resetPasswordByLink(
  deps: AuthDeps,
  input: { token: string; password: string },
) {
  await lookResetLink(deps.db, input.token, deps.clock.now())
  const passwordHash = await deps.passwords.hash(input.password)
  const now = deps.clock.now()
  await deps.db.transaction().execute(async (trx) => {
    const userId = await useResetLink(trx, input.token, now)
    const user = await trx
      .selectFrom('users')
      .select(['id', 'phone_number', 'email'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    await newPassword(trx, user, passwordHash, now)
  })
}
