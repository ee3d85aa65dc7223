import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type { Operator } from '../../contract/console'
import { button } from '../../ui/button.css'
import { PasswordField, TextField } from '../../ui/field'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { MenuIcon } from '../../ui/icons'
import { AppLink } from '../../ui/nav'
import { useDismiss } from '../../ui/use-dismiss'
import * as surface from '../../ui/surface.css'
import { AlertsBadge } from './alerts-badge'
import { useConsoleMessages } from './console-messages'
import { consoleApi, consoleQueries, resetConsole } from './queries'
import * as styles from './console.css'
import { SubmitButton } from '../../ui/submit-button'

/**
 * Every console screen is inside this: the console's own sign-in until its session cookie is
 * live (a customer signed in to the store sees only that), then the console's bar and the
 * screen. The customer's session is neither read nor touched.
 */
export function ConsoleGate({ children }: { children: ReactNode }) {
  const texts = useConsoleMessages()
  const me = useQuery(consoleQueries.me())
  if (texts.error) return <LoadProblem error={texts.error} onRetry={texts.retry} />
  if (!texts.ready) return <Loading />
  if (me.error instanceof ApiError && me.error.status === 401) return <ConsoleSignIn />
  if (me.error) return <LoadProblem error={me.error} onRetry={() => void me.refetch()} />
  if (!me.data) return <Loading />
  return (
    <div className={styles.page}>
      <ConsoleBar operator={me.data} />
      {children}
    </div>
  )
}

/** The store's floating contact button is no part of the console (footer.css.ts). */
function useNoContactButton() {
  useEffect(() => {
    document.documentElement.dataset.console = ''
    return () => void delete document.documentElement.dataset.console
  }, [])
}

/**
 * One row on any phone: the menu's button, with the counts of what waits, and who is signed
 * in; the screens' links and the sign-outs open below it.
 */
function ConsoleBar({ operator }: { operator: Operator }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLElement>(null)
  const close = useCallback(() => setOpen(false), [])
  useDismiss(open, root, close)
  useNoContactButton()
  const signOut = useMutation({
    mutationFn: (everywhere: boolean) =>
      everywhere ? consoleApi.signOutEverywhere() : consoleApi.signOut(),
    onSuccess: () => resetConsole(queryClient),
    onError: (error) => setProblem(error.message),
  })
  const role = operator.role === 'owner' ? t`Owner` : t`Operator`
  return (
    <header ref={root} className={`${surface.surface} ${styles.bar}`}>
      <div className={styles.barRow}>
        <button
          type="button"
          className={`${button.secondary} ${styles.menuButton}`}
          aria-expanded={open}
          aria-controls="console-menu"
          onClick={() => setOpen(!open)}
        >
          <MenuIcon />
          <Trans>Menu</Trans>
          <AlertsBadge of="waiting_top_ups" />
          <AlertsBadge of="unmatched_transfers" />
        </button>
        <p className={styles.who}>
          <Trans>
            <bdi className={styles.whoName} title={operator.username}>
              {operator.username}
            </bdi>{' '}
            ({role})
          </Trans>
        </p>
      </div>
      <div id="console-menu" className={styles.menu} hidden={!open}>
        {/* A link followed closes the menu. */}
        <nav className={styles.nav} aria-label={t`Console`} onClick={close}>
          <AppLink to="/admin" className={styles.navLink} activeOptions={{ exact: true }}>
            <Trans>Today</Trans>
          </AppLink>
          <AppLink to="/admin/top-ups" className={styles.navLink}>
            <Trans>Top-ups</Trans>
          </AppLink>
          <AppLink to="/admin/usdt" className={styles.navLink}>
            <Trans>USDT</Trans>
          </AppLink>
          <AppLink to="/admin/orders" className={styles.navLink}>
            <Trans>Orders</Trans>
          </AppLink>
          <AppLink to="/admin/customers" search={{ q: '', page: 1 }} className={styles.navLink}>
            <Trans>Customers</Trans>
          </AppLink>
          <AppLink to="/admin/catalogue" className={styles.navLink}>
            <Trans>Catalogue</Trans>
          </AppLink>
          <AppLink to="/admin/promo" className={styles.navLink}>
            <Trans>Promo codes</Trans>
          </AppLink>
          {operator.role === 'owner' && (
            <AppLink to="/admin/settings" className={styles.navLink}>
              <Trans>Settings</Trans>
            </AppLink>
          )}
          <AppLink to="/admin/audit" className={styles.navLink}>
            <Trans>Audit log</Trans>
          </AppLink>
        </nav>
        <div className={styles.actions}>
          <button
            type="button"
            className={`${button.secondary} ${styles.small}`}
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(false)}
          >
            <Trans>Sign out</Trans>
          </button>
          <button
            type="button"
            className={`${button.ghost} ${styles.small}`}
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(true)}
          >
            <Trans>Sign out everywhere</Trans>
          </button>
        </div>
      </div>
      <FormError message={problem} />
    </header>
  )
}

function ConsoleSignIn() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null)
  const signIn = useMutation({
    mutationFn: consoleApi.signIn,
    onSuccess: () => resetConsole(queryClient),
    onError: (error) => {
      // What was typed stays; only the code, used or wrong, is typed again.
      setCode('')
      const fields = error instanceof ApiError ? Object.keys(error.fieldErrors) : []
      setProblem({ field: fields[0] ?? 'form', message: error.message })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const missing = !username.trim()
      ? 'username'
      : !password
        ? 'password'
        : !code.trim()
          ? 'code'
          : null
    if (missing) {
      setProblem({ field: missing, message: t`Fill in the username, the password and the code.` })
      return
    }
    setProblem(null)
    signIn.mutate({ username: username.trim(), password, code: code.trim() })
  }
  const invalid = (field: string) => problem?.field === field
  return (
    <section
      className={`${surface.surface} ${styles.signIn}`}
      aria-labelledby="console-sign-in-heading"
    >
      <h1 id="console-sign-in-heading" className={surface.heading}>
        <Trans>Store console</Trans>
      </h1>
      <p className={surface.muted}>
        <Trans>For the store's owner and operators. Sign in with your console account.</Trans>
      </p>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          id="console-username"
          label={<Trans>Username</Trans>}
          value={username}
          onValue={setUsername}
          invalid={invalid('username')}
          autoComplete="username"
          autoCapitalize="none"
        />
        <PasswordField
          id="console-password"
          value={password}
          onValue={setPassword}
          invalid={invalid('password')}
        />
        <TextField
          id="console-code"
          label={<Trans>Authenticator code</Trans>}
          hint={
            <p className={surface.muted} id="console-code-hint">
              <Trans>The 6 digits your authenticator app shows, or a recovery code.</Trans>
            </p>
          }
          aria-describedby="console-code-hint"
          value={code}
          onValue={setCode}
          invalid={invalid('code')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
        />
        <SubmitButton pending={signIn.isPending}>
          <Trans>Sign in</Trans>
        </SubmitButton>
        <FormError message={problem?.message} />
      </form>
    </section>
  )
}
