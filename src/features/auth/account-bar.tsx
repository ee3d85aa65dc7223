import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { TIME_ZONE_KEY } from '../../api/storage-keys'
import { forgetUser } from '../../api/session'
import { formatMoney, toMicros } from '../../domain/money'
import {
  activateLocale,
  chooseLocale,
  currentLocale,
  onLocaleChosen,
  pickedLocale,
} from '../../i18n/locale'
import type { Locale } from '../../contract/common'
import { useLocale } from '../../i18n/use-locale'
import { UserIcon } from '../../ui/icons'
import { lazyPiece } from '../../ui/lazy-piece'
import { useDismiss } from '../../ui/use-dismiss'
import * as styles from './account-bar.css'
import { AppLink } from '../../ui/nav'

// The token dialog and its whitelist rule (with ipaddr.js), and the dialog library behind the
// logout question, load when first opened: not with every signed-in page. So do the account's
// calls and push's code (a file each, shared with the sign-in pages and the notifications'):
// the bar loads on every signed-in page, and each file it loads costs the start its own work.
const TokenDialog = lazyPiece(() => import('./token-dialog').then((m) => m.TokenDialog))
const ConfirmDialog = lazyPiece(() =>
  import('../../ui/confirm-dialog').then((m) => m.ConfirmDialog),
)
const accountCalls = () => import('./queries').then((m) => m.authApi)

/**
 * Keeps the device's time zone for the page's first script, which asks the server for a signed-in
 * customer's lists rendered in its dates (docs/api.md, The first screen): read when the page is
 * first hidden, as Intl's first use costs the main thread 15 to 25 ms, which the start should not
 * pay.
 */
function keepTimeZone() {
  if (document.visibilityState !== 'hidden') return
  document.removeEventListener('visibilitychange', keepTimeZone)
  try {
    localStorage.setItem(TIME_ZONE_KEY, Intl.DateTimeFormat().resolvedOptions().timeZone)
  } catch {
    // Storage refused: the lists are rendered by the storefront.
  }
}

/**
 * The signed-in part of the top bar: balance, currency, the bell (the notifications feature's,
 * given by the shell) and the profile menu.
 */
export default function AccountBar({ bell }: { bell?: ReactNode }) {
  const { t } = useLingui()
  const locale = useLocale()
  const queryClient = useQueryClient()
  const { data: profile, dataUpdatedAt } = useQuery(profileQuery())
  useEffect(() => {
    document.addEventListener('visibilitychange', keepTimeZone)
    return () => document.removeEventListener('visibilitychange', keepTimeZone)
  }, [])

  // A signed-in customer's language choice is saved on the server too.
  const saveLocale = useCallback(
    (chosen: Locale) => {
      accountCalls()
        .then((calls) => calls.changeLocale(chosen))
        .then(() => queryClient.invalidateQueries({ queryKey: profileQuery().queryKey }))
        .catch((error: unknown) => console.warn('The language was not saved', error))
    },
    [queryClient],
  )
  useEffect(() => onLocaleChosen(saveLocale), [saveLocale])

  // The profile's language wins over the one stored by an earlier visit; one picked in this
  // visit (perhaps before this bar was there to send it) wins over the profile's and is saved.
  // Only a profile asked for in this page load: the saved copy shown meanwhile may predate a
  // language picked just before the last visit ended.
  const profileLocale = dataUpdatedAt > performance.timeOrigin ? profile?.locale : undefined
  useEffect(() => {
    if (!profileLocale || profileLocale === currentLocale()) return
    const picked = pickedLocale()
    if (picked) saveLocale(picked)
    else void activateLocale(profileLocale)
  }, [profileLocale, saveLocale])

  const [switching, setSwitching] = useState(false)

  if (!profile) return null
  const balance = formatMoney(toMicros(profile.balance), profile.currency, locale)
  const current = profile.currency
  const other = current === 'USD' ? 'LBP' : 'USD'
  const switchCurrency = {
    disabled: switching,
    onClick: () => {
      setSwitching(true)
      accountCalls()
        .then((calls) => calls.changeCurrency(other, locale))
        .then((reply) => queryClient.setQueryData(profileQuery().queryKey, { data: reply.data }))
        .catch((error: unknown) => console.warn('The currency was not changed', error))
        .finally(() => setSwitching(false))
    },
    // The visible code is part of the name, as speech-input users say what they see.
    'aria-label': t`${current}: change currency to ${other}`,
  }
  return (
    <div className={styles.bar}>
      <AppLink to="/wallet" className={styles.balance} aria-label={t`Balance ${balance}`}>
        <bdi>{balance}</bdi>
      </AppLink>
      <button type="button" className={`${styles.chip} ${styles.wideOnly}`} {...switchCurrency}>
        {profile.currency}
      </button>
      {bell}
      <ProfileMenu
        username={profile.username}
        onLogout={() => forgetUser(queryClient)}
        phoneItems={
          <>
            <li className={styles.phoneOnly}>
              <button type="button" className={styles.menuItem} {...switchCurrency}>
                {profile.currency} → {other}
              </button>
            </li>
            <li className={styles.phoneOnly}>
              <button
                type="button"
                className={styles.menuItem}
                lang={locale === 'en' ? 'ar' : 'en'}
                onClick={() => void chooseLocale(locale === 'en' ? 'ar' : 'en')}
              >
                {locale === 'en' ? 'العربية' : 'English'}
              </button>
            </li>
          </>
        }
      />
    </div>
  )
}

function ProfileMenu({
  username,
  onLogout,
  phoneItems,
}: {
  username: string
  onLogout: () => Promise<void>
  phoneItems: ReactNode
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const [tokenOpen, setTokenOpen] = useState(false)
  const closeToken = useCallback(() => setTokenOpen(false), [])
  const root = useRef<HTMLDivElement>(null)

  const close = useCallback(() => setOpen(false), [])
  /** A menu item that opens a dialog: the menu closes first. */
  const closeThen = (openDialog: (open: true) => void) => () => {
    close()
    openDialog(true)
  }
  useDismiss(open, root, close)

  const logout = async () => {
    setLeaving(true)
    // The device's push token goes, here and on the server (the session's, at logout).
    await import('../../pwa/push').then(
      (push) => push.disablePush(),
      () => undefined,
    )
    // A failed logout call is ignored; the device forgets the user either way.
    await accountCalls()
      .then((calls) => calls.logout())
      .catch(() => undefined)
    await onLogout()
    window.location.reload()
  }

  return (
    <div className={styles.menu} ref={root}>
      <button
        type="button"
        className={styles.chip}
        aria-expanded={open}
        aria-haspopup="true"
        aria-label={t`Account menu of ${username}`}
        onClick={() => setOpen((value) => !value)}
      >
        <UserIcon className={styles.phoneOnly} />
        <span className={styles.wideOnly}>{username}</span>
      </button>
      {open && (
        <ul className={styles.menuList}>
          <li className={`${styles.menuTitle} ${styles.phoneOnly}`}>{username}</li>
          <li>
            <AppLink to="/wallet" className={styles.menuItem} onClick={close}>
              <Trans>Wallet</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink to="/Orders" className={styles.menuItem} onClick={close}>
              <Trans>Orders</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink to="/charging-the-wallet" className={styles.menuItem} onClick={close}>
              <Trans>Charging the wallet</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink to="/shipping-payments" className={styles.menuItem} onClick={close}>
              <Trans>Shipping payments</Trans>
            </AppLink>
          </li>
          <li>
            <button type="button" className={styles.menuItem} onClick={closeThen(setTokenOpen)}>
              <Trans>API token</Trans>
            </button>
          </li>
          {phoneItems}
          <li>
            <button type="button" className={styles.menuItem} onClick={closeThen(setConfirming)}>
              <Trans>Log out</Trans>
            </button>
          </li>
        </ul>
      )}
      {tokenOpen && <TokenDialog onClose={closeToken} />}
      {confirming && (
        <ConfirmDialog
          open
          onOpenChange={setConfirming}
          title={<Trans>Do you want to log out?</Trans>}
          onConfirm={() => void logout()}
          busy={leaving}
        />
      )}
    </div>
  )
}
