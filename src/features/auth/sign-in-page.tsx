import { useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import * as fieldStyles from '../../ui/field.css'
import { PasswordField, TextField } from '../../ui/field'
import { DEFAULT_COUNTRY } from '../../domain/phone'
import { FormError } from '../../ui/form-error'
import { pending } from './pending'
import { PhoneField, type PhoneValue } from './phone-field'
import { authApi } from './queries'
import { passwordProblem, phoneProblem, type Problem } from './rules'
import * as styles from './auth.css'
import { SubmitButton } from '../../ui/submit-button'

export function SignInPage({ redirect, reset }: { redirect?: string; reset?: boolean }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const [mode, setMode] = useState<'phone' | 'username'>('phone')
  const [phone, setPhone] = useState<PhoneValue>({ country: DEFAULT_COUNTRY, number: '' })
  const [username, setUsername] = useState(pending.get('username') ?? '')
  const [password, setPassword] = useState('')
  const [remember, setRemember] = useState(true)
  const [problem, setProblem] = useState<Problem | null>(null)

  const check = useMutation({
    mutationFn: authApi.checkLogin,
    onSuccess: (reply, body) => {
      pending.set({
        phone_number: reply.data.phone_number,
        username: typeof body.username === 'string' ? body.username : null,
        remember: remember ? '1' : '0',
      })
      pending.password = password
      void navigate({ to: '/sign-in/code', search: { redirect } })
    },
    onError: (error) => setProblem({ field: 'form', message: error.message }),
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    let identity: Record<string, string>
    if (mode === 'phone') {
      const result = phone.number.trim() ? await phoneProblem(phone) : null
      if (result === null || typeof result !== 'string') {
        setProblem(
          result ?? {
            field: 'phone_number',
            message: t`Username or Phone Number field is required`,
          },
        )
        return
      }
      identity = { phone_number: result }
    } else {
      if (!username.trim()) {
        setProblem({ field: 'username', message: t`Username or Phone Number field is required` })
        return
      }
      identity = { username: username.trim() }
    }
    const found = passwordProblem(password)
    setProblem(found)
    if (!found) check.mutate({ ...identity, password })
  }

  const invalid = (field: string) => problem?.field === field

  return (
    <section className={styles.card} aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading" className={styles.heading}>
        <Trans>Sign in</Trans>
      </h1>
      {reset && (
        <p role="status" className={fieldStyles.success}>
          <Trans>Your password has been changed. Sign in with your new password.</Trans>
        </p>
      )}
      <div className={styles.toggle} role="group" aria-label={t`Sign in with`}>
        <button
          type="button"
          className={styles.toggleButton}
          aria-pressed={mode === 'phone'}
          onClick={() => setMode('phone')}
        >
          <Trans>Phone number</Trans>
        </button>
        <button
          type="button"
          className={styles.toggleButton}
          aria-pressed={mode === 'username'}
          onClick={() => setMode('username')}
        >
          <Trans>Username</Trans>
        </button>
      </div>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {mode === 'phone' ? (
          <PhoneField
            id="sign-in-phone"
            value={phone}
            onChange={setPhone}
            invalid={invalid('phone_number')}
          />
        ) : (
          <TextField
            id="sign-in-username"
            label={<Trans>Username</Trans>}
            value={username}
            onValue={setUsername}
            invalid={invalid('username')}
            autoComplete="username"
          />
        )}
        <PasswordField
          id="sign-in-password"
          value={password}
          onValue={setPassword}
          invalid={invalid('password')}
        />
        <div className={styles.row}>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
            />
            <Trans>Remember me</Trans>
          </label>
          <AppLink to="/forget-password">
            <Trans>Forgot your password?</Trans>
          </AppLink>
        </div>
        <SubmitButton pending={check.isPending}>
          <Trans>Sign in</Trans>
        </SubmitButton>
        <FormError message={problem?.message} />
      </form>
      <p className={styles.note}>
        <Trans>
          No account yet? <AppLink to="/sign-up">Sign up</AppLink>
        </Trans>
      </p>
    </section>
  )
}
