import type { ReactNode } from 'react'
import * as Radix from '@radix-ui/react-dialog'
import * as styles from './dialog.css'

/**
 * The one modal of the app, on Radix (focus trap, Escape, a title for screen readers). The
 * body goes in `children`, the buttons in `actions`.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  actions,
}: {
  open: boolean
  onOpenChange?: (open: boolean) => void
  title: ReactNode
  /** A short text read out with the title; a richer body goes in children. */
  description?: ReactNode
  children?: ReactNode
  actions?: ReactNode
}) {
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      <Radix.Portal>
        <Radix.Overlay className={styles.overlay} />
        <Radix.Content
          className={styles.content}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Radix.Title className={styles.title}>{title}</Radix.Title>
          {description && <Radix.Description>{description}</Radix.Description>}
          {children}
          {actions && <div className={styles.actions}>{actions}</div>}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  )
}

/** A button that closes the dialog it is in. */
export const DialogClose = Radix.Close
