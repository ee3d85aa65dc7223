import { Trans } from '@lingui/react/macro'
import { button } from '../../ui/button.css'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { Dialog, DialogClose } from '../../ui/dialog'
import { AppLink } from '../../ui/nav'
import { Price } from '../../ui/price'
import type { Purchasable } from './item'
import type { PurchaseFormState } from './use-purchase-form'
import * as styles from './confirmation.css'

/**
 * The order's confirmation (its summary and Confirm) or, signed out, the call to sign in: what
 * Buy opens. Its own chunk with Radix's dialog, loaded once the customer uses the form.
 */
export function OrderConfirmation({ item, form }: { item: Purchasable; form: PurchaseFormState }) {
  const { terms } = item
  const { currency } = form
  return form.signedIn ? (
    <ConfirmDialog
      open={form.confirming}
      onOpenChange={form.setConfirming}
      title={<Trans>Confirm your order</Trans>}
      busy={form.placing}
      onConfirm={form.confirm}
      yes={<Trans>Confirm</Trans>}
      no={<Trans>Cancel</Trans>}
    >
      <dl className={styles.summary}>
        <dt>
          <Trans>Product</Trans>
        </dt>
        <dd className={styles.summaryValue}>
          {terms.target === 'package' ? `${item.productName} — ${item.name}` : item.name}
        </dd>
        <dt>
          <Trans>Quantity</Trans>
        </dt>
        <dd className={styles.summaryValue}>{form.quantity}</dd>
        <dt>
          <Trans>Unit price</Trans>
        </dt>
        <dd className={styles.summaryValue}>
          <Price amount={form.unit} currency={currency} />
        </dd>
        <dt>
          <Trans>Total</Trans>
        </dt>
        <dd className={styles.summaryValue}>
          <Price amount={form.total} currency={currency} />
        </dd>
        {form.balance !== null && (
          <>
            <dt>
              <Trans>Balance after purchase</Trans>
            </dt>
            <dd className={styles.summaryValue}>
              <Price amount={form.balance - form.total} currency={currency} />
            </dd>
          </>
        )}
      </dl>
    </ConfirmDialog>
  ) : (
    <Dialog
      open={form.confirming}
      onOpenChange={form.setConfirming}
      title={<Trans>you have to sign in</Trans>}
      description={<Trans>Sign in to place orders with your wallet.</Trans>}
      actions={
        <>
          <DialogClose className={button.secondary}>
            <Trans>Cancel</Trans>
          </DialogClose>
          <AppLink
            to="/sign-in"
            search={{ redirect: window.location.hash.slice(1) || '/' }}
            className={button.primary}
          >
            <Trans>Sign in</Trans>
          </AppLink>
        </>
      }
    />
  )
}
