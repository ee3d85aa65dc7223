import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { websiteInfoQuery } from '../api/website-info'
import { useToken } from '../api/token'
import { button } from '../ui/button.css'
import { SearchIcon } from '../ui/icons'
import { lazyPiece } from '../ui/lazy-piece'
import { useInstallOffer } from '../pwa/install-offer'
import { LanguageSwitch } from './language-switch'
import * as styles from './shell.css'
import { AppLink, useAppNavigate } from '../ui/nav'

// Only signed-in customers need the account bar (and its dialog): it loads when they do, once
// the page they opened has its replies and is shown (lazyPiece's `idle`), so the page's own
// code and replies have the connection to themselves; so does the bell. The install button
// loads so too, and only when the browser offers to install (an offer it may make as the page
// starts: kept from then on).
const idle = { idle: true }
const AccountBar = lazyPiece(
  () => import('../features/auth/account-bar').then((m) => m.default),
  undefined,
  idle,
)
const Bell = lazyPiece(
  () => import('../features/notifications/bell').then((m) => m.default),
  undefined,
  idle,
)
/**
 * Loads the account bar's and the bell's code, so they render with the page: a signed-in
 * customer's orders and wallet come with them, rendered by the server with the profile their
 * first screen carries (docs/api.md, The first screen), and the storefront hydrates them with
 * the rest of the screen. Without a profile the bar renders nothing (home's signed-in markup).
 */
export const serveAccountBar = () => Promise.all([AccountBar.serve(), Bell.serve()]).then(() => {})
const InstallButton = lazyPiece(
  () => import('../pwa/install-prompt').then((m) => m.InstallButton),
  undefined,
  // Its messages come with home's first ones (vite.config.ts, FIRST_PIECES).
  { idle: true, firstMessages: true },
)

function Install() {
  const [offer, done] = useInstallOffer()
  return offer && <InstallButton offer={offer} done={done} />
}

/**
 * The search box. On a wide screen it sits in the bar; on a phone a button opens it over the
 * navigation row, so the bars stay two rows high.
 */
function Search() {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (open) input.current?.focus()
  }, [open])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const q = query.trim()
    if (!q) return
    setOpen(false)
    void navigate({ to: '/search', search: { q, page: 1 } })
  }

  return (
    <>
      <form
        role="search"
        id="site-search"
        className={`${styles.search} ${open ? styles.searchOpen : ''}`}
        onSubmit={submit}
        onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
      >
        <input
          ref={input}
          className={styles.searchInput}
          type="search"
          name="q"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={t`Search products`}
          aria-label={t`Search products`}
          enterKeyHint="search"
        />
        <button type="submit" className={styles.searchButton} aria-label={t`Search`}>
          <SearchIcon />
        </button>
      </form>
      <button
        type="button"
        className={`${styles.iconButton} ${styles.searchToggle} ${styles.onlyPhone}`}
        aria-label={t`Open the search`}
        aria-controls="site-search"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <SearchIcon />
      </button>
    </>
  )
}

/**
 * The top bar, the page's banner. It starts with the skip link, the first thing a keyboard
 * reaches, inside the banner as every piece of the page is inside a landmark.
 */
export function TopBar() {
  const { t } = useLingui()
  const token = useToken()
  const { data: info } = useQuery(websiteInfoQuery())

  return (
    <header className={styles.topBar}>
      <a
        href="#/"
        className={styles.skipLink}
        onClick={(event) => {
          // A plain #main would be read as a route by the hash router.
          event.preventDefault()
          document.getElementById('main')?.focus()
        }}
      >
        <Trans>Skip to content</Trans>
      </a>
      <AppLink to="/" className={styles.logoLink} aria-label={t`Home`}>
        {info?.logo_url ? (
          <img
            className={styles.logo}
            src={info.logo_url}
            alt={info.website_name}
            width={140}
            height={48}
          />
        ) : (
          <span>{info?.website_name ?? 'Wallet Store'}</span>
        )}
      </AppLink>
      <Search />
      <div className={styles.actions}>
        {/* Signed in, a phone finds the language in the account menu. */}
        <LanguageSwitch className={token ? styles.onlyWide : undefined} />
        {token ? (
          <AccountBar bell={<Bell />} />
        ) : (
          <>
            <AppLink to="/sign-up" className={`${button.ghost} ${styles.onlyWide}`}>
              <Trans>Sign up</Trans>
            </AppLink>
            <AppLink to="/sign-in" className={`${button.secondary} ${styles.compact}`}>
              <Trans>Sign in</Trans>
            </AppLink>
          </>
        )}
      </div>
    </header>
  )
}

/**
 * Scrolls the bar's row (it scrolls sideways on a phone) to show the link to this page. Where
 * the link lies in the row comes from an IntersectionObserver, after the browser's own layout of
 * the frame: measured here, in the effect after the first render, the whole page's style and
 * layout ran inside React's task (15 to 26 ms of it on the orders' page, docs/performance.md).
 * Returns a function that stops it.
 */
function revealCurrent(row: HTMLElement): () => void {
  const link = row.querySelector('[aria-current="page"]')
  if (!link) return () => {}
  const observer = new IntersectionObserver(
    ([entry]) => {
      observer.disconnect()
      const bar = entry?.rootBounds
      if (!entry || !bar) return
      const at = entry.boundingClientRect
      const by = at.left < bar.left ? at.left - bar.left : Math.max(0, at.right - bar.right)
      if (by) row.scrollBy({ left: by })
    },
    { root: row, threshold: 1 },
  )
  observer.observe(link)
  return () => observer.disconnect()
}

export function SecondaryBar() {
  const { t } = useLingui()
  const token = useToken()
  const row = useRef<HTMLUListElement>(null)
  // Whichever links the bar has (before the router or with it), the page's is marked.
  useEffect(() => {
    const list = row.current
    if (!list) return
    let stop = revealCurrent(list)
    const watch = new MutationObserver(() => {
      stop()
      stop = revealCurrent(list)
    })
    watch.observe(list, { subtree: true, childList: true, attributeFilter: ['aria-current'] })
    return () => {
      watch.disconnect()
      stop()
    }
  }, [])
  return (
    <nav className={styles.secondaryBar} aria-label={t`Main`}>
      <ul className={styles.navList} ref={row}>
        <li>
          <AppLink to="/" className={styles.navLink} activeOptions={{ exact: true }}>
            <Trans>Home</Trans>
          </AppLink>
        </li>
        <li>
          <AppLink to="/about-us" className={styles.navLink}>
            <Trans>About us</Trans>
          </AppLink>
        </li>
        <li>
          <AppLink to="/contact-us" className={styles.navLink}>
            <Trans>Contact us</Trans>
          </AppLink>
        </li>
        {token ? (
          <>
            <li>
              <AppLink to="/Orders" className={styles.navLink}>
                <Trans>Orders</Trans>
              </AppLink>
            </li>
            <li>
              <AppLink to="/charging-the-wallet" className={styles.navLink}>
                <Trans>Charging the wallet</Trans>
              </AppLink>
            </li>
          </>
        ) : (
          // The top bar of a phone has room for sign-in only; sign-up is one row down.
          <li className={styles.onlyPhone}>
            <AppLink to="/sign-up" className={styles.navLink}>
              <Trans>Sign up</Trans>
            </AppLink>
          </li>
        )}
      </ul>
      <Install />
    </nav>
  )
}
