import type { InputHTMLAttributes, ReactNode } from 'react'
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
