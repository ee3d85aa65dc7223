import { useState, type ComponentType } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ORDER_TEXT_MAX } from '../../contract/orders'
import {
  formKind,
  isFreeFire,
  needsPlayerNumber,
  requiresAccountLogin,
} from '../../domain/ordering'
import { button } from '../../ui/button.css'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Price } from '../../ui/price'
import { lazyPiece } from '../../ui/lazy-piece'
import type { Purchasable } from './item'
import { clampQuantity } from './rules'
import { PlayerNumberField } from './player-number-field'
import { usePurchaseForm } from './use-purchase-form'
import type { ServiceTabsProps } from './service-tabs'
import * as styles from './ordering.css'

// Radix's dialog and the confirmation load once the customer uses the form (a focus, a touch),
// not with the page: Buy is pressed well after, and the page's start is lighter. Offline before
// the service worker had them, they cannot load, and no order could be placed anyway.
const OrderConfirmation = lazyPiece(
  () => import('./order-confirmation').then((m) => m.OrderConfirmation),
  (state) =>
    state === 'failed' && (
      <p role="status">
        <Trans>You are offline. Connect to the internet to place this order.</Trans>
      </p>
    ),
)

/**
 * The four order forms and the order itself; Buy opens the confirmation. A social service's
 * form shows `serviceTabs`, which only its chunk loads (Radix's tabs): no other form needs them.
 */
export function PurchaseForm({
  item,
  serviceTabs: ServiceTabs,
}: {
  item: Purchasable
  serviceTabs?: ComponentType<ServiceTabsProps>
}) {
  const { t } = useLingui()
  const form = usePurchaseForm(item)
  const [used, setUsed] = useState(false)
  const { terms } = item

  const kind = formKind(terms)
  const freeFire = isFreeFire(terms)
  const { values, set, currency, minimum } = form
  const text = (
    field:
      'email_or_phone_number' | 'password' | 'contact_number' | 'social_link' | 'wallet_address',
    label: string,
    props: Record<string, unknown> = {},
  ) => (
    <TextField
      id={`order-${field}`}
      label={label}
      value={values[field] ?? ''}
      onValue={set(field)}
      maxLength={ORDER_TEXT_MAX}
      {...props}
    />
  )

  return (
    <form
      // Kept as the server made it, inert, until this code comes (src/app/purchase-slots.tsx).
      data-kept=""
      className={styles.form}
      aria-labelledby="order-heading"
      noValidate
      onFocus={() => setUsed(true)}
      onPointerDown={() => setUsed(true)}
      onSubmit={(event) => {
        event.preventDefault()
        form.openConfirmation()
      }}
    >
      <h2 id="order-heading" className={styles.heading}>
        <Trans>Buy {item.name}</Trans>
      </h2>

      {kind === 'social' && ServiceTabs && (
        <ServiceTabs
          services={item.services}
          value={values.service_type}
          onValue={set('service_type')}
        />
      )}

      {!freeFire && (
        <TextField
          id="order-quantity"
          label={<Trans>Quantity</Trans>}
          inputMode="numeric"
          value={values.quantity ?? ''}
          invalid={form.belowMinimum}
          onValue={(typed) => set('quantity')(clampQuantity(typed, terms.maximum))}
          hint={
            form.belowMinimum ? (
              <p className={styles.hint}>
                <Trans>minimum {minimum}</Trans>
              </p>
            ) : item.minimumNote ? (
              <p className={styles.muted}>{item.minimumNote}</p>
            ) : null
          }
        />
      )}

      {kind === 'social' &&
        text('social_link', t`Link`, { type: 'url', dir: 'ltr', placeholder: 'https://' })}
      {kind === 'crypto' &&
        text('wallet_address', t`Wallet address`, { dir: 'ltr', autoComplete: 'off' })}
      {kind === 'requirements' &&
        terms.requirements.map(({ name, label }) => (
          <Field key={name} id={`order-req-${name}`} label={label}>
            <input
              id={`order-req-${name}`}
              className={fieldStyles.input}
              required
              maxLength={ORDER_TEXT_MAX}
              placeholder={
                name === 'player_id' ? t`Enter the player number` : t`Enter the ${label}`
              }
              value={values[name] ?? ''}
              onChange={(event) => set(name)(event.target.value)}
            />
          </Field>
        ))}

      {needsPlayerNumber(terms) && (
        <PlayerNumberField
          value={values.player_number ?? ''}
          onChange={form.setPlayerNumber}
          searchable={!!(terms.thirdPartyApiId || terms.thirdPartyAs7abApi)}
          player={form.player}
          searching={form.lookup.isPending}
          onSearch={(number) => form.lookup.mutate(number)}
        />
      )}
      {kind === 'standard' && (
        <>
          {text(
            'email_or_phone_number',
            requiresAccountLogin(terms)
              ? t`Email or phone number`
              : t`Email or phone number (optional)`,
            { dir: 'ltr', autoComplete: 'off' },
          )}
          {text('password', t`Password (optional)`, { type: 'password', autoComplete: 'off' })}
          {text('contact_number', t`Contact number (optional)`, {
            type: 'tel',
            dir: 'ltr',
            autoComplete: 'tel',
          })}
        </>
      )}

      {!freeFire && (
        <p className={styles.total}>
          <span>
            <Trans>Total</Trans>
          </span>
          <Price amount={form.total} currency={currency} />
        </p>
      )}
      <button type="submit" className={button.primary}>
        <Trans>Buy</Trans>
      </button>
      <FormError message={form.problem} />

      {(used || form.confirming) && <OrderConfirmation item={item} form={form} />}
      {form.placing && (
        <div className={styles.overlay} role="status">
          <Trans>Placing your order…</Trans>
        </div>
      )}
    </form>
  )
}
