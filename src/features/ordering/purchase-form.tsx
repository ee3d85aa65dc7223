import { useState } from 'react'
import * as Dialog from '@radix-ui/react-dialog'
import * as Tabs from '@radix-ui/react-tabs'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { USER_KEY } from '../../api/session'
import { useToken } from '../../api/token'
import { websiteInfoQuery } from '../../api/website-info'
import { ORDER_TEXT_MAX } from '../../contract/orders'
import { formatMoney, toMicros } from '../../domain/money'
import { convertFromUsd, totalPrice, unitPrice, type AccountType } from '../../domain/pricing'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import * as dialog from '../../ui/dialog.css'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { formKind, isFreeFire, needsPlayerNumber, type Purchasable } from './item'
import { lookupPlayer, orderingQueries, placeOrder } from './queries'
import { clampQuantity, emptyValues, firstProblem, minimumOf, type OrderValues } from './rules'
import * as styles from './ordering.css'

const DEFAULT_LBP_RATE = 89_500

/** Go back and reload: an unavailable item never shows its form (spec section 4). */
function UnavailablePopup() {
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>
            <Trans>This item is currently unavailable.</Trans>
          </Dialog.Title>
          <Dialog.Description>
            <Trans>Go back, or reload the page to check again.</Trans>
          </Dialog.Description>
          <div className={dialog.actions}>
            <button
              type="button"
              className={button.secondary}
              onClick={() => window.history.back()}
            >
              <Trans>Go back</Trans>
            </button>
            <button
              type="button"
              className={button.primary}
              onClick={() => window.location.reload()}
            >
              <Trans>Reload</Trans>
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** The four order forms of spec section 2, the confirmation and the order itself. */
export function PurchaseForm({ item }: { item: Purchasable }) {
  const { t } = useLingui()
  const locale = useLocale()
  const token = useToken()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data: profile } = useQuery({ ...profileQuery(), enabled: !!token })
  const { data: info } = useQuery(websiteInfoQuery())
  const kind = formKind(item)
  const serviceLabel = (type: string) =>
    type === 'LIKES'
      ? t`Likes`
      : type === 'COMMENTS'
        ? t`Comments`
        : type === 'VIEWS'
          ? t`Views`
          : t`Followers`
  const freeFire = isFreeFire(item)
  const [values, setValues] = useState<OrderValues>(() => emptyValues(item))
  const [player, setPlayer] = useState<{
    verified: string | null
    name: string | null
    error: string | null
  }>({ verified: null, name: null, error: null })
  const [problem, setProblem] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [checkoutKey, setCheckoutKey] = useState('')

  // The customer's last verified player number pre-fills the field, once.
  const wantsPlayer = kind === 'standard' && needsPlayerNumber(item)
  const saved = useQuery({
    ...orderingQueries.playerNumber(item.productId),
    enabled: !!token && wantsPlayer,
  })
  const [prefilled, setPrefilled] = useState(false)
  if (!prefilled && saved.data !== undefined) {
    setPrefilled(true)
    if (saved.data && !values.player_number)
      setValues((old) => ({ ...old, player_number: saved.data }))
  }

  const lookup = useMutation({
    mutationFn: (number: string) => lookupPlayer(item, number),
    onSuccess: (reply, number) =>
      setPlayer({ verified: number, name: reply.data.username, error: null }),
    onError: (error) => setPlayer({ verified: null, name: null, error: error.message }),
  })

  const order = useMutation({
    mutationFn: () => placeOrder(payload(), checkoutKey, player.name ?? undefined),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: USER_KEY })
      void navigate({ to: '/Orders' })
    },
    onError: (error) => {
      setConfirming(false)
      setProblem(error.message)
    },
  })

  const set = (field: keyof Omit<OrderValues, 'requirements'>) => (value: string) =>
    setValues((old) => ({ ...old, [field]: value }))

  // Prices: the one rule of src/domain/pricing.ts, in the customer's currency.
  const account: AccountType = profile?.type === 'COMPANY' ? 'COMPANY' : 'CUSTOMER'
  const currency = profile?.currency ?? 'USD'
  const quantity = freeFire ? 1 : Number(values.quantity || 0)
  const service = item.services.find((s) => s.type === values.service_type)
  const usdUnit = unitPrice(
    service
      ? {
          companyPrice: toMicros(service.company_price),
          productPercentage: service.product_percentage ?? 0,
          number: item.number,
        }
      : {
          companyPrice: toMicros(item.companyPrice),
          secCompanyPrice: item.secCompanyPrice == null ? null : toMicros(item.secCompanyPrice),
          companyPercentage: item.companyPercentage,
          productPercentage: item.productPercentage,
          number: item.number,
        },
    account,
    { crypto: kind === 'crypto', quantity },
  )
  // As the server charges: the USD total converted once (LBP in whole pounds).
  const rate = info?.lbp_rate ?? DEFAULT_LBP_RATE
  const unit = convertFromUsd(usdUnit, rate, currency)
  const total = convertFromUsd(
    totalPrice(usdUnit, Number.isSafeInteger(quantity) ? quantity : 0),
    rate,
    currency,
  )
  const money = (micros: bigint) => formatMoney(micros, currency, locale)
  const minimum = minimumOf(item, values)
  const belowMinimum = !freeFire && values.quantity !== '' && quantity < minimum

  function payload() {
    const body: Record<string, string | number | undefined> = {
      [item.target === 'package' ? 'package_id' : 'product_id']: item.id,
      qty: quantity,
      product_reference: item.productReference ?? undefined,
    }
    if (kind === 'social')
      Object.assign(body, { service_type: values.service_type, social_link: values.social_link })
    if (kind === 'crypto') body.wallet_address = values.wallet_address
    if (kind === 'requirements') Object.assign(body, values.requirements)
    if (kind === 'standard') {
      Object.assign(body, {
        email_or_phone_number: values.email_or_phone_number,
        password: values.password,
        contact_number: values.contact_number,
      })
      if (wantsPlayer)
        Object.assign(body, {
          player_number: values.player_number.trim(),
          player_name: player.name ?? undefined,
        })
    }
    return body
  }

  const openConfirmation = () => {
    setProblem(null)
    setCheckoutKey(crypto.randomUUID())
    setConfirming(true)
  }

  const confirm = () => {
    if (order.isPending) return
    const found = firstProblem(item, kind, values, { verifiedNumber: player.verified })
    if (found) {
      setConfirming(false)
      setProblem(found)
      return
    }
    if (!navigator.onLine) {
      // A payment is never queued: offline, the order fails at once.
      setConfirming(false)
      setProblem(t`You are offline. Connect to the internet to place this order.`)
      return
    }
    order.mutate()
  }

  if (!item.available) return <UnavailablePopup />

  const text = (
    field:
      'email_or_phone_number' | 'password' | 'contact_number' | 'social_link' | 'wallet_address',
    label: string,
    props: Record<string, unknown> = {},
  ) => (
    <Field id={`order-${field}`} label={label}>
      <input
        id={`order-${field}`}
        className={fieldStyles.input}
        value={values[field]}
        maxLength={ORDER_TEXT_MAX}
        onChange={(event) => set(field)(event.target.value)}
        {...props}
      />
    </Field>
  )

  return (
    <form
      className={styles.form}
      aria-labelledby="order-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        openConfirmation()
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
        <Field
          id="order-quantity"
          label={<Trans>Quantity</Trans>}
          hint={
            belowMinimum ? (
              <p className={styles.hint}>
                <Trans>minimum {minimum}</Trans>
              </p>
            ) : item.minimumNote ? (
              <p className={styles.muted}>{item.minimumNote}</p>
            ) : null
          }
        >
          <input
            id="order-quantity"
            className={fieldStyles.input}
            inputMode="numeric"
            value={values.quantity}
            aria-invalid={belowMinimum}
            onChange={(event) => set('quantity')(clampQuantity(event.target.value, item.maximum))}
          />
        </Field>
      )}

      {kind === 'social' &&
        text('social_link', t`Link`, { type: 'url', dir: 'ltr', placeholder: 'https://' })}
      {kind === 'crypto' &&
        text('wallet_address', t`Wallet address`, { dir: 'ltr', autoComplete: 'off' })}
      {kind === 'requirements' &&
        item.requirements.map(({ name, label }) => (
          <Field key={name} id={`order-req-${name}`} label={label}>
            <input
              id={`order-req-${name}`}
              className={fieldStyles.input}
              required
              maxLength={ORDER_TEXT_MAX}
              placeholder={
                name === 'player_id' ? t`Enter the player number` : t`Enter the ${label}`
              }
              value={values.requirements[name] ?? ''}
              onChange={(event) =>
                setValues((old) => ({
                  ...old,
                  requirements: { ...old.requirements, [name]: event.target.value },
                }))
              }
            />
          </Field>
        ))}

      {kind === 'standard' && wantsPlayer && (
        <Field id="order-player_number" label={<Trans>Player number</Trans>}>
          <div className={styles.row}>
            <input
              id="order-player_number"
              className={`${fieldStyles.input} ${styles.grow}`}
              inputMode="numeric"
              dir="ltr"
              placeholder={t`Enter the player number`}
              value={values.player_number}
              maxLength={ORDER_TEXT_MAX}
              onChange={(event) => {
                set('player_number')(event.target.value)
                // Spec section 4: changing the number invalidates the lookup.
                setPlayer({ verified: null, name: null, error: null })
              }}
            />
            {(item.thirdPartyApiId || item.thirdPartyAs7abApi) && (
              <button
                type="button"
                className={button.secondary}
                disabled={!values.player_number.trim() || lookup.isPending}
                onClick={() => lookup.mutate(values.player_number.trim())}
              >
                <Trans>Search player</Trans>
              </button>
            )}
          </div>
          {(item.thirdPartyApiId || item.thirdPartyAs7abApi) && (
            <p className={styles.playerName} role="status" aria-label={t`Player name`}>
              {lookup.isPending ? (
                <Trans>Searching…</Trans>
              ) : player.name ? (
                <span className={styles.playerOk}>{player.name}</span>
              ) : player.error ? (
                <span className={fieldStyles.error}>{player.error}</span>
              ) : null}
            </p>
          )}
        </Field>
      )}

      {kind === 'standard' && (
        <>
          {item.isTiktok &&
            text('email_or_phone_number', t`Email or phone number`, { autoComplete: 'off' })}
          {item.isTiktok &&
            text('password', t`Password (optional)`, { type: 'password', autoComplete: 'off' })}
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
          <bdi>{money(total)}</bdi>
        </p>
      )}
      <button type="submit" className={button.primary}>
        <Trans>Buy</Trans>
      </button>
      {problem && (
        <p className={fieldStyles.error} role="alert">
          {problem}
        </p>
      )}

      <Dialog.Root
        open={confirming}
        onOpenChange={(open) => !order.isPending && setConfirming(open)}
      >
        <Dialog.Portal>
          <Dialog.Overlay className={dialog.overlay} />
          <Dialog.Content className={dialog.content}>
            {token ? (
              <>
                <Dialog.Title className={dialog.title}>
                  <Trans>Confirm your order</Trans>
                </Dialog.Title>
                <Dialog.Description asChild>
                  <dl className={styles.summary}>
                    <dt>
                      <Trans>Product</Trans>
                    </dt>
                    <dd className={styles.summaryValue}>
                      {item.target === 'package' ? `${item.productName} — ${item.name}` : item.name}
                    </dd>
                    <dt>
                      <Trans>Quantity</Trans>
                    </dt>
                    <dd className={styles.summaryValue}>{quantity}</dd>
                    <dt>
                      <Trans>Unit price</Trans>
                    </dt>
                    <dd className={styles.summaryValue}>
                      <bdi>{money(unit)}</bdi>
                    </dd>
                    <dt>
                      <Trans>Total</Trans>
                    </dt>
                    <dd className={styles.summaryValue}>
                      <bdi>{money(total)}</bdi>
                    </dd>
                    {profile && (
                      <>
                        <dt>
                          <Trans>Balance after purchase</Trans>
                        </dt>
                        <dd className={styles.summaryValue}>
                          <bdi>{money(toMicros(profile.balance) - total)}</bdi>
                        </dd>
                      </>
                    )}
                  </dl>
                </Dialog.Description>
                <div className={dialog.actions}>
                  <Dialog.Close className={button.secondary}>
                    <Trans>Cancel</Trans>
                  </Dialog.Close>
                  <button
                    type="button"
                    className={button.primary}
                    disabled={order.isPending}
                    onClick={confirm}
                  >
                    <Trans>Confirm</Trans>
                  </button>
                </div>
              </>
            ) : (
              <>
                <Dialog.Title className={dialog.title}>
                  <Trans>you have to sign in</Trans>
                </Dialog.Title>
                <Dialog.Description>
                  <Trans>Sign in to place orders with your wallet.</Trans>
                </Dialog.Description>
                <div className={dialog.actions}>
                  <Dialog.Close className={button.secondary}>
                    <Trans>Cancel</Trans>
                  </Dialog.Close>
                  <Link
                    to="/sign-in"
                    search={{ redirect: window.location.hash.slice(1) || '/' }}
                    className={button.primary}
                  >
                    <Trans>Sign in</Trans>
                  </Link>
                </div>
              </>
            )}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {order.isPending && (
        <div className={styles.overlay} role="status">
          <Trans>Placing your order…</Trans>
        </div>
      )}
    </form>
  )
}
