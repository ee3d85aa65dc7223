import { useAppNavigate } from './nav'
import { Trans } from '@lingui/react/macro'
import { button } from './button.css'
import { Dialog } from './dialog'

/**
 * What opens instead of a purchase form that cannot be used. A product that cannot be bought
 * says sorry and okay goes home; an item of it (a package) that cannot be bought offers to go
 * back or to reload and check again.
 */
export function UnavailableDialog({ kind }: { kind: 'product' | 'item' }) {
  const navigate = useAppNavigate()
  const home = () => void navigate({ to: '/' })
  if (kind === 'product')
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && home()}
        title={<Trans>Unavailable</Trans>}
        description={<Trans>Sorry, this product is currently unavailable.</Trans>}
        actions={
          <button type="button" className={button.primary} onClick={home}>
            <Trans>Okay</Trans>
          </button>
        }
      />
    )
  return (
    <Dialog
      open
      title={<Trans>This item is currently unavailable.</Trans>}
      description={<Trans>Go back, or reload the page to check again.</Trans>}
      actions={
        <>
          <button type="button" className={button.secondary} onClick={() => window.history.back()}>
            <Trans>Go back</Trans>
          </button>
          <button type="button" className={button.primary} onClick={() => window.location.reload()}>
            <Trans>Reload</Trans>
          </button>
        </>
      }
    />
  )
}
