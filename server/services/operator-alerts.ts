import type { Kysely } from 'kysely'
import type { Locale } from '../../src/contract/common'
import type { UsdtNetwork } from '../../src/contract/wallet'
import { microsText } from '../../src/domain/money'
import type { Database } from '../db/schema'
import { LOCALES, t } from '../i18n'
import { pushJob, type PushMessage } from './notifications'

/*
 * The operators are told (docs/api.md, Console: Alerts): a new receipt or a USDT transfer that
 * matched nothing moves the console bar's badge (GET admin/alerts, read every few seconds) and
 * sends a push to every operator's devices, with the customers' push machinery
 * (services/push.ts): a job written in the transaction of the change, sent once it commits.
 */

export type OperatorAlert =
  | { kind: 'receipt'; id: number; username: string }
  | { kind: 'transfer'; amount: bigint; network: UsdtNetwork }

/** The alert's push in one language; a click opens its console screen. */
function alertMessage(alert: OperatorAlert, locale: Locale): PushMessage {
  const text =
    alert.kind === 'receipt'
      ? {
          title: t(locale, 'console.alert.receipt.title'),
          body: t(locale, 'console.alert.receipt.body', { id: alert.id, username: alert.username }),
        }
      : {
          title: t(locale, 'console.alert.transfer.title'),
          body: t(locale, 'console.alert.transfer.body', {
            amount: microsText(alert.amount),
            network: alert.network.toUpperCase(),
          }),
        }
  const page = alert.kind === 'receipt' ? '/admin/top-ups' : '/admin/usdt'
  return {
    notification: text,
    data: { page, tag: alert.kind === 'receipt' ? `console-receipt-${alert.id}` : 'console-usdt' },
  }
}

/** Queues the alert's push to every operator's devices. Call it in the change's transaction. */
export async function alertOperators(trx: Kysely<Database>, alert: OperatorAlert, now: Date) {
  const at = now.toISOString()
  const message = Object.fromEntries(LOCALES.map((l) => [l, alertMessage(alert, l)]))
  await trx.insertInto('operator_push_jobs').values(pushJob(message, at)).execute()
}

/** POST admin/push-token: this console session's device receives the alerts. */
export async function saveOperatorPushToken(
  db: Kysely<Database>,
  sessionId: number,
  { token, locale, now }: { token: string; locale: Locale; now: Date },
) {
  await db
    .updateTable('operator_sessions')
    .set({ fcm_token: token, fcm_token_at: now.toISOString(), fcm_locale: locale })
    .where('id', '=', sessionId)
    .execute()
}

const count = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0)

/** GET admin/alerts: the receipts waiting and the transfers that credited nothing. */
export async function alertCounts(db: Kysely<Database>) {
  const [waiting, unmatched] = await Promise.all([
    db
      .selectFrom('charging_processes')
      .where('status', '=', 'WAITING')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('usdt_transfers')
      .where('outcome', '!=', 'CREDITED')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ])
  return { waiting_top_ups: count(waiting), unmatched_transfers: count(unmatched) }
}
