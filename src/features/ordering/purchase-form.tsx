import * as Tabs from '@radix-ui/react-tabs'
import { AppLink } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { ORDER_TEXT_MAX } from '../../contract/orders'
import {
  formKind,
  isFreeFire,
  needsPlayerNumber,
  requiresAccountLogin,
} from '../../domain/ordering'
import { button } from '../../ui/button.css'
import { Dialog, DialogClose } from '../../ui/dialog'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Price } from '../../ui/price'
import { UnavailableDialog } from '../../ui/unavailable-dialog'
import type { Purchasable } from './item'
import { clampQuantity } from './rules'
import { PlayerNumberField } from './player-number-field'
import { usePurchaseForm } from './use-purchase-form'
import * as styles from './ordering.css'

/** The four order forms, the confirmation and the order itself. */
export function PurchaseForm({ item }: { item: Purchasable }) {
  const { t } = useLingui()
  const form = usePurchaseForm(item)
  const { terms } = item
  if (!item.available) return <UnavailableDialog kind="item" />

  const kind = formKind(terms)
  const freeFire = isFreeFire(terms)
  const { values, set, currency, minimum } = form
  const serviceLabel = (type: string) =>
    type === 'LIKES'
      ? t`Likes`
      : type === 'COMMENTS'
        ? t`Comments`
        : type === 'VIEWS'
          ? t`Views`
          : t`Followers`
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
      className={styles.form}
      aria-labelledby="order-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        form.openConfirmation()
      }}
    >
      <h2 id="order-heading" className={styles.heading}>
        <Trans>Buy {item.name}</Trans>
      </h2>

      {kind === 'social' && (
        <Tabs.Root value={values.service_type} onValueChange={set('service_type')}>
          <Tabs.List className={styles.tabList} aria-label={t`Service`}>
            {item.services.map((s) => (
              <Tabs.Trigger key={s.type} value={s.type} className={styles.tab}>
                {serviceLabel(s.type)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {item.services.map((s) => (
            <Tabs.Content key={s.type} value={s.type}>
              {s.note && <p className={styles.muted}>{s.note}</p>}
            </Tabs.Content>
          ))}
        </Tabs.Root>
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

      {form.signedIn ? (
        <Dialog
          open={form.confirming}
          onOpenChange={form.setConfirming}
          title={<Trans>Confirm your order</Trans>}
          actions={
            <>
              <DialogClose className={button.secondary}>
                <Trans>Cancel</Trans>
              </DialogClose>
              <button
                type="button"
                className={button.primary}
                disabled={form.placing}
                onClick={form.confirm}
              >
                <Trans>Confirm</Trans>
              </button>
            </>
          }
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
        </Dialog>
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
      )}
      {form.placing && (
        <div className={styles.overlay} role="status">
          <Trans>Placing your order…</Trans>
        </div>
      )}
    </form>
  )
}
