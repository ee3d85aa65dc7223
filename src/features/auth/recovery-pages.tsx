import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { useMutation } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { CODE_PATTERN, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../../contract/constants'
import { CodeInput } from '../../ui/code-input'
import { TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { pending } from './pending'
import { authApi } from './queries'
import { confirmationProblem, emailProblem, passwordProblem } from './rules'
import * as styles from './auth.css'
import { SubmitButton } from '../../ui/submit-button'

/** /forget-password: one e-mail field; the address waits in session storage for the code. */
export function ForgotPasswordPage() {
  const navigate = useAppNavigate()
  const [email, setEmail] = useState(pending.get('email') ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  // Codes for this e-mail are paused (wrong codes from somewhere): the e-mail carries a link.
  const [linkOnly, setLinkOnly] = useState<string | null>(null)
  const send = useMutation({
    mutationFn: authApi.sendResetCode,
    onSuccess: (reply, sentTo) => {
      if (!reply.data.code_sent) {
        setLinkOnly(reply.message)
        return
      }
      pending.set({ email: sentTo, code: null })
      void navigate({ to: '/verification-code' })
    },
    onError: (error) => setProblem(error.message),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = emailProblem(email)
    setProblem(found?.message ?? null)
    setLinkOnly(null)
    if (!found) send.mutate(email.trim())
  }

  return (
    <section className={styles.card} aria-labelledby="forgot-heading">
      <h1 id="forgot-heading" className={styles.heading}>
        <Trans>Forgot your password?</Trans>
      </h1>
      <p className={styles.note}>
        <Trans>
          Enter the e-mail of your account and we will send you a code and a link to set a new
          password.
        </Trans>
      </p>
      {linkOnly && (
        <p role="status" className={fieldStyles.success}>
          {linkOnly}
        </p>
      )}
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          id="forgot-email"
          label={<Trans>Email</Trans>}
          value={email}
          onValue={setEmail}
          invalid={!!problem}
          type="email"
          autoComplete="email"
          dir="ltr"
          maxLength={EMAIL_MAX_LENGTH}
        />
        <SubmitButton pending={send.isPending}>
          <Trans>Next</Trans>
        </SubmitButton>
        <FormError message={problem} />
      </form>
    </section>
  )
}

/** /verification-code: the e-mailed code, checked before the new password is asked for. */
export function VerificationCodePage() {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const [email] = useState(() => pending.get('email'))
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (!email) void navigate({ to: '/forget-password', replace: true })
  }, [email, navigate])

  const check = useMutation({
    mutationFn: (value: string) => authApi.checkResetCode(email ?? '', value),
    onSuccess: (reply, value) => {
      if (!reply.data.is_valid) {
        setProblem(t`error in verification code`)
        return
      }
      pending.set({ code: value })
      void navigate({ to: '/set-password' })
    },
    onError: (error) => setProblem(error.message),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!CODE_PATTERN.test(code)) {
      setProblem(t`Enter the 4-digit code.`)
      return
    }
    setProblem(null)
    check.mutate(code)
  }

  return (
    <section className={styles.card} aria-labelledby="verify-heading">
      <h1 id="verify-heading" className={styles.heading}>
        <Trans>Verification code</Trans>
      </h1>
      <p className={styles.note}>
        <Trans>
          We sent a code to <bdi dir="ltr">{email}</bdi>. You can also open the link in that e-mail
          instead.
        </Trans>
      </p>
      <form className={styles.form} onSubmit={submit} noValidate>
        <CodeInput value={code} onChange={setCode} invalid={!!problem} />
        <SubmitButton pending={check.isPending}>
          <Trans>Verification</Trans>
        </SubmitButton>
        <FormError message={problem} />
      </form>
    </section>
  )
}

/** /set-password: the new password, then back to sign-in. */
export function SetPasswordPage() {
  const navigate = useAppNavigate()
  // Read once: a successful save clears them, and that must not send the customer back.
  const [{ email, code }] = useState(() => ({
    email: pending.get('email'),
    code: pending.get('code'),
  }))

  useEffect(() => {
    if (!email || !code) void navigate({ to: '/forget-password', replace: true })
  }, [email, code, navigate])

  return (
    <NewPasswordForm
      save={(password, confirmation) =>
        authApi.resetPassword({
          email,
          verification_code: code,
          password,
          password_confirmation: confirmation,
        })
      }
    />
  )
}

/**
 * /reset-password/<token>: the page the reset e-mail's link opens. The token stands for the
 * e-mail and the code, so wrong codes from anyone else never stand in the way.
 */
export function ResetLinkPage({ token }: { token: string }) {
  return (
    <NewPasswordForm
      save={(password, confirmation) =>
        authApi.resetPasswordByLink({ token, password, password_confirmation: confirmation })
      }
      footer={
        <p className={styles.note}>
          <AppLink to="/forget-password">
            <Trans>Ask for a new link</Trans>
          </AppLink>
        </p>
      }
    />
  )
}

/** A new password twice, saved by `save`; then back to sign-in. What was typed stays on error. */
function NewPasswordForm({
  save,
  footer,
}: {
  save: (password: string, confirmation: string) => Promise<unknown>
  footer?: ReactNode
}) {
  const navigate = useAppNavigate()
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [show, setShow] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const saving = useMutation({
    mutationFn: () => save(password, confirmation),
    onSuccess: () => {
      pending.clear()
      void navigate({ to: '/sign-in', search: { reset: 1 } })
    },
    onError: (error) => setProblem(error.message),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = passwordProblem(password) ?? confirmationProblem(password, confirmation)
    setProblem(found?.message ?? null)
    if (!found) saving.mutate()
  }

  return (
    <section className={styles.card} aria-labelledby="set-password-heading">
      <h1 id="set-password-heading" className={styles.heading}>
        <Trans>Set a new password</Trans>
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextField
          id="new-password"
          label={<Trans>Password</Trans>}
          value={password}
          onValue={setPassword}
          type={show ? 'text' : 'password'}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <TextField
          id="new-password-confirmation"
          label={<Trans>Password confirmation</Trans>}
          value={confirmation}
          onValue={setConfirmation}
          type={show ? 'text' : 'password'}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={show}
            onChange={(event) => setShow(event.target.checked)}
          />
          <Trans>Show Password</Trans>
        </label>
        <SubmitButton pending={saving.isPending}>
          <Trans>Save</Trans>
        </SubmitButton>
        <FormError message={problem} />
      </form>
      {footer}
    </section>
  )
}
