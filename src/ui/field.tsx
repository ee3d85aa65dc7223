import type { InputHTMLAttributes, ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'
import { PASSWORD_MAX_LENGTH } from '../contract/constants'
import * as styles from './field.css'

/** A label over its control, with an optional hint below. */
export function Field({
  id,
  label,
  children,
  hint,
}: {
  id: string
  label: ReactNode
  children: ReactNode
  hint?: ReactNode
}) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
      {hint}
    </div>
  )
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange' | 'value'>

/** A labelled text input that reports its value. */
export function TextField({
  id,
  label,
  value,
  onValue,
  invalid,
  hint,
  ...input
}: InputProps & {
  id: string
  label: ReactNode
  value: string
  onValue: (value: string) => void
  invalid?: boolean
  hint?: ReactNode
}) {
  return (
    <Field id={id} label={label} hint={hint}>
      <input
        id={id}
        className={styles.input}
        value={value}
        aria-invalid={invalid}
        onChange={(event) => onValue(event.target.value)}
        {...input}
      />
    </Field>
  )
}

/** A password input (up to the longest password the store takes), labelled "Password" unless told. */
export function PasswordField({
  label = <Trans>Password</Trans>,
  autoComplete = 'current-password',
  ...field
}: Omit<Parameters<typeof TextField>[0], 'label' | 'type'> & {
  label?: ReactNode
  autoComplete?: 'current-password' | 'new-password'
}) {
  return (
    <TextField
      type="password"
      maxLength={PASSWORD_MAX_LENGTH}
      label={label}
      autoComplete={autoComplete}
      {...field}
    />
  )
}

/** A labelled select: a list's filter, or a form's choice. */
export function SelectField<V extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string
  label: ReactNode
  value: V
  options: { value: V; label: string }[]
  onChange: (value: V) => void
}) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={styles.input}
        value={value}
        onChange={(event) => onChange(event.target.value as V)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}
