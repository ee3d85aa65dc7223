import { pushToken } from '../../pwa/push'
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import { startSession } from '../../api/session'
import { CODE_PATTERN } from '../../contract/auth'
import { button } from '../../ui/button.css'
import { CodeInput } from '../../ui/code-input'
import { FormError } from '../../ui/form-error'
import { pending } from './pending'
import { authApi } from './queries'
import * as styles from './auth.css'

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
  const navigate = useNavigate()
  const router = useRouter()
  const queryClient = useQueryClient()
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
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
  const { phone_number: phone, password } = identity

  useEffect(() => {
    // After a reload the password is gone (it is never stored): start again from the form.
    if (!phone || !password)
      void navigate({ to: kind === 'sign-in' ? '/sign-in' : '/sign-up', replace: true })
  }, [phone, password, kind, navigate])

  const { mutate: verifyCode, isPending: verifying } = useMutation({
    mutationFn: async (verification_code: string) => {
      // A device that already allows notifications keeps getting them in the new session.
      const body = { ...identity, verification_code, fcm_token: await pushToken() }
      return kind === 'sign-in' ? authApi.login(body) : authApi.signup(body)
    },
    onSuccess: async (reply) => {
      const remember = pending.get('remember') !== '0'
      pending.clear()
      await startSession(queryClient, reply.token, remember)
      router.history.push(safeRedirect(redirect))
    },
    onError: (error) =>
      setProblem(
        error instanceof ApiError && (error.status === 422 || error.status === 400)
          ? t`error in verification code`
          : error.message,
      ),
  })

  const resend = useMutation({
    mutationFn: () =>
      kind === 'sign-in' ? authApi.checkLogin(identity) : authApi.validateSignup(identity),
    onSuccess: () => {
      restart()
      setProblem(null)
      setNotice(t`A new code is on its way.`)
    },
    onError: (error) => setProblem(error.message),
  })

  const submit = useCallback(
    (event?: FormEvent) => {
      event?.preventDefault()
      setNotice(null)
      if (verifying) return
      if (!CODE_PATTERN.test(code)) {
        setProblem(t`Enter the 4-digit code.`)
        return
      }
      setProblem(null)
      verifyCode(code)
    },
    [code, t, verifying, verifyCode],
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
        <CodeInput value={code} onChange={setCode} invalid={!!problem} />
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
              onClick={() => resend.mutate()}
            >
              <Trans>Resend the code</Trans>
            </button>
          )}
        </div>
        <button type="submit" className={button.primary} disabled={verifying}>
          {verifying ? <Trans>Please wait…</Trans> : <Trans>Send</Trans>}
        </button>
        <FormError message={problem} />
        {notice && <p role="status">{notice}</p>}
      </form>
    </section>
  )
}
