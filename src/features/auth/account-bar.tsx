import { useEffect, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { forgetUser } from '../../api/session'
import { formatMoney, toMicros } from '../../domain/money'
import { activateLocale, currentLocale, onLocaleChosen } from '../../i18n/locale'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { profileQuery } from '../../api/profile'
import { authApi } from './queries'
import * as styles from './account-bar.css'

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="currentColor" aria-hidden="true">
      <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
    </svg>
  )
}

/** The signed-in part of the top bar: balance, bell, currency and the profile menu. */
export default function AccountBar() {
  const { t } = useLingui()
  const locale = useLocale()
  const queryClient = useQueryClient()
  const { data: profile } = useQuery(profileQuery())

  // Spec section 4: the profile's language wins over the stored one when they differ.
  const profileLocale = profile?.locale
  useEffect(() => {
    if (profileLocale && profileLocale !== currentLocale()) void activateLocale(profileLocale)
  }, [profileLocale])

  // Spec section 4: a signed-in customer's language choice is posted to the server.
  useEffect(
    () =>
      onLocaleChosen((chosen) => {
        authApi
          .changeLocale(chosen)
          .then(() => queryClient.invalidateQueries({ queryKey: profileQuery().queryKey }))
          .catch((error: unknown) => console.warn('The language was not saved', error))
      }),
    [queryClient],
  )

  const currency = useMutation({
    mutationFn: () => authApi.changeCurrency(profile?.currency === 'USD' ? 'LBP' : 'USD', locale),
    onSuccess: (reply) => queryClient.setQueryData(profileQuery().queryKey, { data: reply.data }),
  })

  if (!profile) return null
  const count = profile.new_notifications_count
  return (
    <div className={styles.bar}>
      <Link to="/wallet" className={styles.balance} aria-label={t`Balance`}>
        <bdi>{formatMoney(toMicros(profile.balance), profile.currency, locale)}</bdi>
      </Link>
      <button
        type="button"
        className={button.ghost}
        disabled={currency.isPending}
        onClick={() => currency.mutate()}
        aria-label={t`Change currency to ${profile.currency === 'USD' ? 'LBP' : 'USD'}`}
      >
        {profile.currency}
      </button>
      <Link to="/Notifications" className={styles.bell} aria-label={t`Notifications: ${count} new`}>
        <BellIcon />
        {count > 0 && <span className={styles.badge}>{count > 99 ? '99+' : count}</span>}
      </Link>
      <ProfileMenu username={profile.username} onLogout={() => forgetUser(queryClient)} />
    </div>
  )
}

function ProfileMenu({ username, onLogout }: { username: string; onLogout: () => Promise<void> }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const root = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      )
        setOpen(false)
    }
    document.addEventListener('pointerdown', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('pointerdown', close)
      document.removeEventListener('keydown', close)
    }
  }, [open])

  const logout = async () => {
    setLeaving(true)
    // Spec section 8: a failed logout call is ignored; the device forgets the user either way.
    await authApi.logout().catch(() => undefined)
    await onLogout()
    window.location.reload()
  }

  const close = () => setOpen(false)
  return (
    <div className={styles.menu} ref={root}>
      <button
        type="button"
        className={button.secondary}
        aria-expanded={open}
        aria-haspopup="true"
        aria-label={t`Account menu of ${username}`}
        onClick={() => setOpen((value) => !value)}
      >
        {username}
      </button>
      {open && (
        <ul className={styles.menuList}>
          <li>
            <Link to="/wallet" className={styles.menuItem} onClick={close}>
              <Trans>Wallet</Trans>
            </Link>
          </li>
          <li>
            <Link to="/Orders" className={styles.menuItem} onClick={close}>
              <Trans>Orders</Trans>
            </Link>
          </li>
          <li>
            <Link to="/charging-the-wallet" className={styles.menuItem} onClick={close}>
              <Trans>Charging the wallet</Trans>
            </Link>
          </li>
          <li>
            <Link to="/shipping-payments" className={styles.menuItem} onClick={close}>
              <Trans>Shipping payments</Trans>
            </Link>
          </li>
          <li>
            <button
              type="button"
              className={styles.menuItem}
              onClick={() => {
                close()
                setConfirming(true)
              }}
            >
              <Trans>Log out</Trans>
            </button>
          </li>
        </ul>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>Do you want to log out?</Trans>}
        onConfirm={() => void logout()}
        busy={leaving}
      />
    </div>
  )
}
