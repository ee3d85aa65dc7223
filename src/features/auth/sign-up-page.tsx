import { useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../contract/constants'
import { DEFAULT_COUNTRY } from '../../domain/phone'
import { PasswordField, TextField } from '../../ui/field'
import { FormError } from '../../ui/form-error'
import { pending } from './pending'
import { PhoneField, type PhoneValue } from './phone-field'
import { authApi } from './queries'
import {
  confirmationProblem,
  emailProblem,
  passwordProblem,
  phoneProblem,
  type Problem,
} from './rules'
import * as styles from './auth.css'
import { SubmitButton } from '../../ui/submit-button'

export function SignUpPage() {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const [username, setUsername] = useState('')
  const [phone, setPhone] = useState<PhoneValue>({ country: DEFAULT_COUNTRY, number: '' })
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [problem, setProblem] = useState<Problem | null>(null)

  const validate = useMutation({
    mutationFn: authApi.validateSignup,
    onSuccess: (reply, body) => {
      pending.set({
        phone_number: reply.data.phone_number,
        username: String(body.username),
        email: String(body.email),
        remember: '1',
      })
      pending.password = password
      void navigate({ to: '/sign-up/code' })
    },
    onError: (error) => setProblem({ field: 'form', message: error.message }),
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    /** The form's first problem, or the phone number in E.164 when there is none. */
    const checked = async (): Promise<Problem | string> => {
      const mail = emailProblem(email)
      if (mail) return mail
      if (!username.trim()) return { field: 'username', message: t`Username field is required` }
      const number = await phoneProblem(phone)
      if (typeof number !== 'string') return number
      return passwordProblem(password) ?? confirmationProblem(password, confirmation) ?? number
    }
    const result = await checked()
    if (typeof result !== 'string') return setProblem(result)
    setProblem(null)
    validate.mutate({
      email: email.trim(),
      username: username.trim(),
      phone_number: result,
      password,
    })
  }

  const invalid = (field: string) => problem?.field === field

  return (
    <section className={styles.card} aria-labelledby="sign-up-heading">
      <h1 id="sign-up-heading" className={styles.heading}>
        <Trans>Sign up</Trans>
      </h1>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          id="sign-up-username"
          label={<Trans>User name</Trans>}
          value={username}
          onValue={setUsername}
          invalid={invalid('username')}
          autoComplete="username"
          maxLength={USERNAME_MAX_LENGTH}
        />
        <PhoneField
          id="sign-up-phone"
          value={phone}
          onChange={setPhone}
          invalid={invalid('phone_number')}
        />
        <TextField
          id="sign-up-email"
          label={<Trans>Email</Trans>}
          value={email}
          onValue={setEmail}
          invalid={invalid('email')}
          type="email"
          autoComplete="email"
          dir="ltr"
          maxLength={EMAIL_MAX_LENGTH}
        />
        <PasswordField
          id="sign-up-password"
          value={password}
          onValue={setPassword}
          invalid={invalid('password')}
          autoComplete="new-password"
        />
        <PasswordField
          id="sign-up-confirmation"
          label={<Trans>Confirm password</Trans>}
          value={confirmation}
          onValue={setConfirmation}
          invalid={invalid('password_confirmation')}
          autoComplete="new-password"
        />
        <p className={styles.note}>
          <Trans>Company accounts cannot sign up here: please contact the provider.</Trans>
        </p>
        <SubmitButton pending={validate.isPending}>
          <Trans>Sign up</Trans>
        </SubmitButton>
        <FormError message={problem?.message} />
      </form>
      <p className={styles.note}>
        <Trans>
          Already have an account? <AppLink to="/sign-in">Sign in</AppLink>
        </Trans>
      </p>
    </section>
  )
}
