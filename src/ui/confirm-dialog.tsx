import type { ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'
import { button } from './button.css'
import { Dialog, DialogClose } from './dialog'

/** A yes/no question in a modal dialog; `children` (what is asked about) go above the buttons. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  onConfirm,
  busy = false,
  yes = <Trans>Yes</Trans>,
  no = <Trans>No</Trans>,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  onConfirm: () => void
  busy?: boolean
  yes?: ReactNode
  no?: ReactNode
  children?: ReactNode
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      description={description}
      actions={
        <>
          <DialogClose className={button.secondary}>{no}</DialogClose>
          <button type="button" className={button.primary} disabled={busy} onClick={onConfirm}>
            {yes}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  )
}
