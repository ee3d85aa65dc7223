import { pushToken } from '../../pwa/push'
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import { startSession } from '../../api/session'
import { CODE_PATTERN } from '../../contract/constants'
import { CodeInput } from '../../ui/code-input'
import { PasswordField } from '../../ui/field'
import { FormError } from '../../ui/form-error'
import { pending } from './pending'
import { authApi } from './queries'
import { confirmationProblem, passwordProblem, type Problem } from './rules'
import * as styles from './auth.css'
import { SubmitButton } from '../../ui/submit-button'

export const RESEND_SECONDS = 60

/** Only paths of this app: a redirect never leaves the store. */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : '/'
}

/** Seconds left until a deadline, ticking every second; restart() sets a new deadline. */
function useCountdown() {
  const [endsAt, setEndsAt] = useState(() => Date.now() + RESEND_SECONDS * 1000)
  const left = () => Math.max(0, Math.ceil((endsAt - Date.now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    const timer = setInterval(() => {
      const remaining = left()
      setSeconds(remaining)
      if (remaining === 0) clearInterval(timer)
    }, 1000)
    return () => clearInterval(timer)
    // left() only reads endsAt.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [endsAt])
  const restart = () => {
    setEndsAt(Date.now() + RESEND_SECONDS * 1000)
    setSeconds(RESEND_SECONDS)
  }
  return [seconds, restart] as const
}

/** The phone-code step shared by sign-in and sign-up. */
export function CodePage({ kind, redirect }: { kind: 'sign-in' | 'sign-up'; redirect?: string }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const queryClient = useQueryClient()
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<Problem | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [seconds, restart] = useCountdown()
  const formRef = useRef<HTMLFormElement>(null)

  // Read once: leaving the page clears them, and that must not send the customer back.
  const [identity] = useState(() => ({
    username: pending.get('username'),
    phone_number: pending.get('phone_number'),
    email: kind === 'sign-up' ? pending.get('email') : null,
    password: pending.password,
  }))
  const phone = identity.phone_number
  // After a reload (or a phone's browser dropping the tab while the customer reads WhatsApp)
  // the password is gone, as it is never stored: the customer types it again here (a new
  // account's twice, as on the sign-up form), and the code already sent still works.
  const [typedPassword, setTypedPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const asksPassword = !identity.password
  const withPassword = () => ({ ...identity, password: identity.password ?? typedPassword })
  const passwordIssue = useMemo(
    () =>
      asksPassword
        ? (passwordProblem(typedPassword) ??
          (kind === 'sign-up' ? confirmationProblem(typedPassword, confirmation) : null))
        : null,
    [asksPassword, typedPassword, confirmation, kind],
  )

  useEffect(() => {
    // Without the phone number there is nothing to confirm: start again from the form.
    if (!phone) void navigate({ to: kind === 'sign-in' ? '/sign-in' : '/sign-up', replace: true })
  }, [phone, kind, navigate])

  const { mutate: verifyCode, isPending: verifying } = useMutation({
    mutationFn: async (verification_code: string) => {
      // A device that already allows notifications keeps getting them in the new session.
      const body = { ...withPassword(), verification_code, fcm_token: await pushToken() }
      return kind === 'sign-in' ? authApi.login(body) : authApi.signup(body)
    },
    onSuccess: async (reply) => {
      const remember = pending.get('remember') !== '0'
      pending.clear()
      await startSession(queryClient, reply.token, remember)
      void navigate({ href: safeRedirect(redirect) })
    },
    onError: (error) => {
      const refused = error instanceof ApiError && (error.status === 422 || error.status === 400)
      // A sign-in refused but not for the code: the password typed again here is wrong.
      if (refused && kind === 'sign-in' && asksPassword && !error.fieldErrors.verification_code)
        setProblem({ field: 'password', message: error.message })
      else
        setProblem({
          field: 'code',
          message: refused ? t`error in verification code` : error.message,
        })
    },
  })

  const resend = useMutation({
    mutationFn: () =>
      kind === 'sign-in'
        ? authApi.checkLogin(withPassword())
        : authApi.validateSignup(withPassword()),
    onSuccess: () => {
      restart()
      setProblem(null)
      setNotice(t`A new code is on its way.`)
    },
    onError: (error) => setProblem({ field: 'form', message: error.message }),
  })

  const submit = useCallback(
    (event?: FormEvent) => {
      event?.preventDefault()
      setNotice(null)
      if (verifying) return
      if (passwordIssue) {
        setProblem(passwordIssue)
        return
      }
      if (!CODE_PATTERN.test(code)) {
        setProblem({ field: 'code', message: t`Enter the 4-digit code.` })
        return
      }
      setProblem(null)
      verifyCode(code)
    },
    [code, t, verifying, verifyCode, passwordIssue],
  )

  // Enter anywhere on the screen submits the code.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null
      if (event.key !== 'Enter' || target?.closest('form, button, a, select, textarea')) return
      submit()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [submit])

  const mmss = `00:${String(Math.max(0, seconds)).padStart(2, '0')}`

  return (
    <section className={styles.card} aria-labelledby="code-heading">
      <h1 id="code-heading" className={styles.heading}>
        {kind === 'sign-in' ? (
          <Trans>
            Enter the code sent to <bdi dir="ltr">{phone}</bdi>
          </Trans>
        ) : (
          <Trans>Confirm your phone number</Trans>
        )}
      </h1>
      <p className={styles.note}>
        <Trans>
          We sent a 4-digit code to your WhatsApp. It may take up to a minute to arrive.
        </Trans>
      </p>
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
        {asksPassword && (
          <>
            <p id="code-password-note" className={styles.note}>
              <Trans>The page was reloaded: type your password again to use this code.</Trans>
            </p>
            <PasswordField
              id="code-password"
              autoComplete={kind === 'sign-in' ? 'current-password' : 'new-password'}
              aria-describedby="code-password-note"
              value={typedPassword}
              onValue={setTypedPassword}
              invalid={problem?.field === 'password'}
            />
            {kind === 'sign-up' && (
              <PasswordField
                id="code-password-confirmation"
                autoComplete="new-password"
                label={<Trans>Confirm password</Trans>}
                value={confirmation}
                onValue={setConfirmation}
                invalid={problem?.field === 'password_confirmation'}
              />
            )}
          </>
        )}
        <CodeInput value={code} onChange={setCode} invalid={problem?.field === 'code'} />
        <div className={styles.row}>
          {seconds > 0 ? (
            <span className={styles.countdown} aria-live="off" dir="ltr">
              {mmss}
            </span>
          ) : (
            <button
              type="button"
              className={styles.linkButton}
              disabled={resend.isPending}
              onClick={() => (passwordIssue ? setProblem(passwordIssue) : resend.mutate())}
            >
              <Trans>Resend the code</Trans>
            </button>
          )}
        </div>
        <SubmitButton pending={verifying}>
          <Trans>Send</Trans>
        </SubmitButton>
        <FormError message={problem?.message} />
        {notice && <p role="status">{notice}</p>}
      </form>
    </section>
  )
}
