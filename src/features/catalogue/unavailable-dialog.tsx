import * as Dialog from '@radix-ui/react-dialog'
import { useNavigate } from '@tanstack/react-router'
import { Trans } from '@lingui/react/macro'
import { button } from '../../ui/button.css'
import * as dialog from '../../ui/dialog.css'

/** Spec section 2: the product-unavailable dialog; okay goes home. */
export function UnavailableDialog() {
  const navigate = useNavigate()
  const leave = () => void navigate({ to: '/' })
  return (
    <Dialog.Root open onOpenChange={(open) => !open && leave()}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>
            <Trans>Unavailable</Trans>
          </Dialog.Title>
          <Dialog.Description>
            <Trans>Sorry, this product is currently unavailable.</Trans>
          </Dialog.Description>
          <div className={dialog.actions}>
            <button type="button" className={button.primary} onClick={leave}>
              <Trans>Okay</Trans>
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
