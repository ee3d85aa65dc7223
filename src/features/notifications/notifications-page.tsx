import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { button } from '../../ui/button.css'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/empty-state'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { NoData } from '../../ui/load-problem'
import { SortFilter } from '../../ui/list-filters'
import { sortQuery, type ListSortChoice } from '../../ui/list-sort'
import { Pagination } from '../../ui/pagination'
import * as surface from '../../ui/surface.css'
import { useLocale } from '../../i18n/use-locale'
import { subjectPage } from '../../pwa/notification-page'
import { PushPrompt } from './push-prompt'
import { notificationQueries, notificationsApi } from './queries'
import * as styles from './notifications.css'
import { AccountSavedNote } from '../../ui/saved-note'

/** Every notification, newest first, a page at a time; each can be deleted. */
export function NotificationsPage({ page, sort }: { page: number; sort: ListSortChoice }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const queryClient = useQueryClient()
  const { data, error, refetch, dataUpdatedAt } = useQuery(
    notificationQueries.list(useLocale(), page, sortQuery(sort)),
  )
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null)

  // Reading the page marked it read: the bell's count follows.
  const unread = data?.unread
  useEffect(() => {
    if (unread !== undefined)
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey })
  }, [unread, queryClient])

  const remove = useMutation({
    mutationFn: notificationsApi.remove,
    onSuccess: async () => {
      setResult({ ok: true, text: t`deleted successfully` })
      await queryClient.invalidateQueries({ queryKey: notificationQueries.all })
    },
    onError: () => setResult({ ok: false, text: t`error in deleting, try again` }),
  })

  return (
    <section className={surface.surface} aria-labelledby="notifications-heading">
      <h1 id="notifications-heading" className={surface.heading}>
        <Trans>Notifications</Trans>
      </h1>
      <AccountSavedNote updatedAt={dataUpdatedAt} />
      <PushPrompt />
      <div className={surface.filters}>
        <SortFilter
          id="notifications-sort"
          value={sort}
          onChange={(next) =>
            void navigate({ to: '/Notifications', search: { sort: next, page: 1 } })
          }
        />
      </div>
      {result?.ok && (
        <p role="status" className={fieldStyles.success}>
          {result.text}
        </p>
      )}
      {result && !result.ok && <FormError message={result.text} />}
      {!data ? (
        <NoData error={error} onRetry={() => void refetch()} />
      ) : data.total === 0 ? (
        <EmptyState>
          <Trans>There are no notifications to show</Trans>
        </EmptyState>
      ) : (
        <>
          <ul className={styles.cards} aria-label={t`Notifications`}>
            {data.data.map((note) => (
              <li key={note.id} className={styles.card}>
                <div className={styles.cardBody}>
                  {/* An operator's reason, or a notification from before they were said in
                      each language, may be in the other language: its own direction. */}
                  <p className={styles.title} dir="auto">
                    {note.subject ? (
                      <AppLink to={subjectPage(note.subject)}>{note.title}</AppLink>
                    ) : (
                      note.title
                    )}
                  </p>
                  <p className={styles.description} dir="auto">
                    {note.description}
                  </p>
                </div>
                <p className={styles.when}>
                  <DateTime at={note.created_at} date={note.date} time={note.time} />
                </p>
                <button
                  type="button"
                  className={button.secondary}
                  aria-label={t`Delete`}
                  disabled={remove.isPending}
                  onClick={() => {
                    if (!navigator.onLine)
                      return setResult({
                        ok: false,
                        text: t`You are offline. Connect to the internet to delete this.`,
                      })
                    setResult(null)
                    remove.mutate(note.id)
                  }}
                >
                  <Trans>Delete</Trans>
                </button>
              </li>
            ))}
          </ul>
          <Pagination
            page={page}
            total={data.total}
            perPage={data.per_page}
            link={(n, props) => (
              <AppLink to="/Notifications" search={{ sort, page: n }} {...props} />
            )}
          />
        </>
      )}
    </section>
  )
}
