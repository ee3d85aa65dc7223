import type { ReactNode } from 'react'
import * as Dialog from '@radix-ui/react-dialog'
import { Trans } from '@lingui/react/macro'
import { button } from './button.css'
import * as styles from './dialog.css'

/** A yes/no question in a modal dialog (Radix: focus trap, Escape, screen-reader title). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onConfirm,
  busy = false,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  onConfirm: () => void
  busy?: boolean
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title className={styles.title}>{title}</Dialog.Title>
          {description && <Dialog.Description>{description}</Dialog.Description>}
          <div className={styles.actions}>
            <Dialog.Close className={button.secondary}>
              <Trans>No</Trans>
            </Dialog.Close>
            <button type="button" className={button.primary} disabled={busy} onClick={onConfirm}>
              <Trans>Yes</Trans>
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
