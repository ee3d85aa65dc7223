import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'

/** The storefront paths notifications carried before (`url`), and the subject each names. */
const SUBJECT_PATHS: [RegExp, string][] = [
  [/^\/#\/Orders\/(\d+)$/, 'order'],
  [/^\/#\/shipping-payments\/(\d+)$/, 'top-up'],
  [/^\/#\/wallet$/, 'wallet'],
]

function subjectOf(url: string | null): { kind: string; id: number | null } | null {
  for (const [pattern, kind] of SUBJECT_PATHS) {
    const match = url === null ? null : pattern.exec(url)
    if (match) return { kind, id: match[1] ? Number(match[1]) : null }
  }
  return null
}

interface Before {
  notifications: {
    id: number
    url: string | null
    subject_kind: string | null
    subject_id: number | null
  }
  push_jobs: { id: number; message: string; done_at: string | null }
}

/**
 * Notifications said in the reader's language: a message and its values, rendered when they
 * are read, instead of the text written in the language of the moment they were made; and a
 * subject (an order, a top-up, the wallet) instead of a storefront path, which the storefront
 * and its service worker turn into a page (docs/api.md, Notifications). Rows made before keep
 * their text as it was written and get the subject their path named; pushes not sent yet get
 * the subject in place of the path.
 */
export function notificationMessagesMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  return {
    async up(db: Kysely<unknown>) {
      const alter = () => db.schema.alterTable('notifications')
      // The message of `notification.<message>.title` and `.body`, and its values as JSON.
      await alter().addColumn('message', 'varchar(64)').execute()
      await alter().addColumn('message_values', 'text').execute()
      await alter().addColumn('subject_kind', 'varchar(16)').execute()
      await alter().addColumn('subject_id', idType).execute()

      const kysely = db as Kysely<Before>
      const rows = await kysely
        .selectFrom('notifications')
        .select(['id', 'url'])
        .where('url', 'is not', null)
        .execute()
      for (const row of rows) {
        const subject = subjectOf(row.url)
        if (subject)
          await kysely
            .updateTable('notifications')
            .set({ subject_kind: subject.kind, subject_id: subject.id })
            .where('id', '=', row.id)
            .execute()
      }
      const pending = await kysely
        .selectFrom('push_jobs')
        .select(['id', 'message'])
        .where('done_at', 'is', null)
        .execute()
      for (const job of pending) {
        const message = JSON.parse(job.message) as { data?: Record<string, string> }
        const { url = null, ...data } = message.data ?? {}
        const subject = subjectOf(url)
        await kysely
          .updateTable('push_jobs')
          .set({
            message: JSON.stringify({
              ...message,
              data: {
                ...data,
                ...(subject && { kind: subject.kind }),
                ...(subject?.id != null && { id: String(subject.id) }),
              },
            }),
          })
          .where('id', '=', job.id)
          .execute()
      }

      await alter().dropColumn('url').execute()
      await alter().dropColumn('tag').execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('notifications').addColumn('url', 'text').execute()
      await db.schema.alterTable('notifications').addColumn('tag', 'varchar(64)').execute()
      for (const column of ['subject_id', 'subject_kind', 'message_values', 'message'])
        await db.schema.alterTable('notifications').dropColumn(column).execute()
    },
  }
}
