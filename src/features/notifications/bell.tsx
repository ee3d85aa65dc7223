import { useCallback, useEffect, useRef, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { useLocale } from '../../i18n/use-locale'
import { BellIcon } from '../../ui/icons'
import { Loading } from '../../ui/load-problem'
import { useDismiss } from '../../ui/use-dismiss'
import { notificationQueries } from './queries'
import * as styles from './notifications.css'
import { AppLink } from '../../ui/nav'

/**
 * The bell: the unread count, and a popup with the newest unread notifications (at most two)
 * or the no-new-notifications text, and a way to all of them. Opening it reads them, so the
 * count goes down.
 */
export default function Bell() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const { data: profile } = useQuery(profileQuery())
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const count = profile?.new_notifications_count ?? 0
  const [hadUnread, setHadUnread] = useState(false)
  const popup = useQuery({
    ...notificationQueries.popup(useLocale()),
    enabled: open && hadUnread,
  })

  // What was read shows at once in the bell's count.
  const read = popup.data?.unread
  useEffect(() => {
    if (read !== undefined)
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey })
  }, [read, queryClient])

  const close = useCallback(() => setOpen(false), [])
  useDismiss(open, root, close)

  const shown = count > 99 ? '99+' : String(count)
  return (
    <div className={styles.bellRoot} ref={root}>
      <button
        type="button"
        className={styles.bell}
        aria-expanded={open}
        aria-controls="notifications-popup"
        aria-label={count > 0 ? t`Notifications: ${shown} new` : t`Notifications`}
        onClick={() => {
          if (!open) setHadUnread(count > 0)
          setOpen((value) => !value)
        }}
      >
        <BellIcon />
        {count > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {shown}
          </span>
        )}
      </button>
      {open && (
        <div
          id="notifications-popup"
          className={styles.popup}
          role="region"
          aria-label={t`Notifications`}
        >
          {!hadUnread ? (
            <p className={styles.none}>
              <Trans>There are no new notifications</Trans>
            </p>
          ) : !popup.data ? (
            <Loading />
          ) : (
            <ul className={styles.popupList}>
              {popup.data.data.map((note) => (
                <li key={note.id}>
                  <p className={styles.title} dir="auto">
                    {note.title}
                  </p>
                  <p className={styles.description} dir="auto">
                    {note.description}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <AppLink to="/Notifications" className={styles.viewAll} onClick={close}>
            <Trans>View All</Trans>
          </AppLink>
        </div>
      )}
    </div>
  )
}
