import * as fieldStyles from './field.css'

/** The one message shown under a form's button, in red, announced to screen readers. */
export function FormError({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null
  return (
    <p id={id} className={fieldStyles.error} role="alert">
      {message}
    </p>
  )
}
