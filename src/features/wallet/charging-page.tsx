import { useEffect, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { USER_KEY } from '../../api/session'
import type { Currency } from '../../contract/profile'
import { RECEIPT_MAX_BYTES } from '../../contract/constants'
import {
  methodEntry,
  RECEIPT_METHOD_ENTRIES,
  type ChargingMethod,
  type ReceiptMethod,
} from '../../contract/payment-methods'
import type { PaymentInfo, UsdtNetwork, UsdtPayment } from '../../contract/wallet'
import { netOfTax } from '../../domain/money'
import { button } from '../../ui/button.css'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { lazyPiece } from '../../ui/lazy-piece'
import { Loading, NoData } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { useOnline } from '../../ui/use-online'
import { useMethodName } from '../../ui/method-name'
import { chargingApi, paymentInfoQuery, usdtQueries } from './charging-queries'
import { UsdtForm } from './usdt'
import { prepareReceipt } from './receipt'
import * as styles from './wallet.css'

/** The payment's dialog (Radix Dialog, the QR code): loaded once a payment is requested. */
const UsdtDialog = lazyPiece(() => import('./usdt-dialog').then((m) => m.UsdtDialog))

type Method = ChargingMethod

/** The USDT networks the store has an address on. */
export const usdtNetworks = (info: PaymentInfo): UsdtNetwork[] => [
  ...(info.usdt_trc20 ? (['trc20'] as const) : []),
  ...(info.usdt_bep20 ? (['bep20'] as const) : []),
]

/**
 * The methods the store offers this customer now: USDT for a wallet in dollars when a network
 * has an address, a receipt method only when its instructions are set, and codes always.
 */
export function availableMethods(info: PaymentInfo, currency: Currency): Method[] {
  return [
    ...(currency === 'USD' && usdtNetworks(info).length > 0 ? (['USDT'] as const) : []),
    ...RECEIPT_METHOD_ENTRIES.filter((m) => info[`${m.key}_text`]).map((m) => m.id),
    'PROMO_CODE',
  ]
}

const taxOf = (info: PaymentInfo, method: Method) => {
  const entry = methodEntry(method)
  return 'key' in entry ? (info[`${entry.key}_tax_percentage`] ?? 0) : 0
}

/** What the customer is told to do to pay by a receipt method (the owner's text). */
const instructionsOf = (info: PaymentInfo, method: ReceiptMethod) =>
  info[`${RECEIPT_METHOD_ENTRIES.find((m) => m.id === method)!.key}_text`] ?? ''

/** The value as typed, if it is a positive amount. */
function typedValue(text: string): string | null {
  const value = text.trim().replace(',', '.')
  return /^\d{1,13}(\.\d{1,6})?$/.test(value) && Number(value) > 0 ? value : null
}

/** The charging page: choose a method, then its form. */
export function ChargingPage() {
  const methodName = useMethodName()
  const info = useQuery(paymentInfoQuery())
  const profile = useQuery(profileQuery())
  // A USDT payment still waiting opens again, with its countdown, after a reload.
  const open = useQuery(usdtQueries.open())
  const [chosen, setChosen] = useState<Method | null>(null)
  // The payment the dialog shows. Once shown it stays until closed, even when the open
  // payment goes (it was just paid and the dialog says so).
  const [payment, setPayment] = useState<UsdtPayment | null>(null)
  const [dismissed, setDismissed] = useState<number | null>(null)
  if (!payment && open.data && open.data.payment_id !== dismissed) setPayment(open.data)
  if (!info.data) return <NoData error={info.error} onRetry={() => void info.refetch()} />
  if (!profile.data) return <Loading />

  const currency = profile.data.currency
  const methods = availableMethods(info.data, currency)
  // A wallet in pounds pays by Whish Money unless the customer chooses otherwise.
  const fallback =
    currency !== 'USD' && methods.includes('WHISH_MONEY') ? 'WHISH_MONEY' : methods[0]!
  const method = chosen && methods.includes(chosen) ? chosen : fallback

  return (
    <section className={surface.surface} aria-labelledby="charging-heading">
      <h1 id="charging-heading" className={surface.heading}>
        <Trans>Charging the wallet</Trans>
      </h1>
      <fieldset className={styles.methods}>
        <legend className={surface.subheading}>
          <Trans>Choose a method</Trans>
        </legend>
        {methods.map((m) => {
          const tax = taxOf(info.data, m)
          return (
            <label key={m} className={styles.method}>
              <input
                type="radio"
                name="method"
                className={styles.methodRadio}
                checked={method === m}
                onChange={() => setChosen(m)}
              />
              <span className={styles.methodName}>{methodName(m)}</span>
              <span className={surface.muted}>
                {m === 'PROMO_CODE' ? (
                  <Trans>A code you were given</Trans>
                ) : (
                  <Trans>Tax {tax} %</Trans>
                )}
              </span>
            </label>
          )
        })}
      </fieldset>
      {method === 'PROMO_CODE' ? (
        <PromoForm />
      ) : method === 'USDT' ? (
        <UsdtForm
          networks={usdtNetworks(info.data)}
          tax={taxOf(info.data, 'USDT')}
          onRequested={setPayment}
        />
      ) : (
        <ReceiptForm
          key={method}
          method={method}
          instructions={instructionsOf(info.data, method)}
          tax={taxOf(info.data, method)}
          currency={currency}
          label={methodName(method)}
        />
      )}
      {payment && (
        <UsdtDialog
          payment={payment}
          onClose={() => {
            setPayment(null)
            setDismissed(payment.payment_id)
          }}
        />
      )}
    </section>
  )
}

/** The customer's data changed: their balance, their history, their top-ups. */
function useRefreshWallet() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: USER_KEY })
}

function ReceiptForm({
  method,
  instructions,
  tax,
  currency,
  label,
}: {
  method: ReceiptMethod
  instructions: string
  tax: number
  currency: Currency
  label: string
}) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const online = useOnline()
  const refresh = useRefreshWallet()
  const [value, setValue] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  // The preview's object URL lives until another photo is chosen or the form goes.
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])
  const choose = (chosen: File | null) => {
    setFile(chosen)
    setPreview(chosen ? URL.createObjectURL(chosen) : null)
  }

  const send = useMutation({
    mutationFn: async ({ amount, photo }: { amount: string; photo: File }) => {
      let image: Blob
      try {
        image = await prepareReceipt(photo)
      } catch (error) {
        throw new Error(
          error instanceof Error && error.message === 'too-large'
            ? t`The photo is too large even when made smaller. Choose another one.`
            : t`This file is not a photo. Choose a picture of the notice.`,
          { cause: error },
        )
      }
      return chargingApi.withReceipt(method, amount, image)
    },
    onSuccess: async () => {
      await refresh()
      void navigate({ to: '/shipping-payments' })
    },
    onError: (error) => setProblem(error.message),
  })

  const amount = typedValue(value)
  const maxMegabytes = RECEIPT_MAX_BYTES / 1024 / 1024
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    if (!amount) return setProblem(t`Please enter a valid amount`)
    if (!file) return setProblem(t`Add a photo of the payment notice.`)
    // A payment is never queued: offline, it fails at once.
    if (!online) return setProblem(t`You are offline. Connect to the internet to send this.`)
    send.mutate({ amount, photo: file })
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={label}>
      <p className={styles.instructions}>{instructions}</p>
      <TextField
        id="charge-value"
        label={<Trans>Value ({currency})</Trans>}
        inputMode="decimal"
        dir="ltr"
        value={value}
        onValue={setValue}
        invalid={value !== '' && !amount}
      />
      <Field
        id="charge-image"
        label={<Trans>Photo of the payment notice</Trans>}
        hint={
          <p className={surface.muted} id="charge-image-hint">
            <Trans>Images only (JPEG, PNG or WebP), up to {maxMegabytes} MB.</Trans>
          </p>
        }
      >
        <input
          id="charge-image"
          className={fieldStyles.input}
          type="file"
          accept="image/*"
          aria-describedby="charge-image-hint"
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
        />
      </Field>
      {preview && <img className={styles.preview} src={preview} alt={t`The photo you chose`} />}
      <p className={styles.net}>
        <span>
          <Trans>Credited after {tax} % tax</Trans>
        </span>
        {amount ? <Price amount={netOfTax(amount, tax)} currency={currency} /> : <span>—</span>}
      </p>
      <button type="submit" className={button.primary} disabled={send.isPending}>
        {send.isPending ? <Trans>Sending…</Trans> : <Trans>Send</Trans>}
      </button>
      <FormError message={problem} />
    </form>
  )
}

function PromoForm() {
  const { t } = useLingui()
  const online = useOnline()
  const refresh = useRefreshWallet()
  const [code, setCode] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const redeem = useMutation({
    mutationFn: (text: string) => chargingApi.promo(text),
    onSuccess: async () => {
      setCode('')
      await refresh()
    },
    onError: (error) => setProblem(error.message),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    redeem.reset()
    if (!code.trim()) return setProblem(t`Enter the code.`)
    if (!online) return setProblem(t`You are offline. Connect to the internet to send this.`)
    redeem.mutate(code.trim())
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label={t`Redeem a code`}>
      <TextField
        id="promo-code"
        label={<Trans>Code</Trans>}
        dir="ltr"
        autoComplete="off"
        autoCapitalize="characters"
        value={code}
        onValue={setCode}
      />
      <button type="submit" className={button.primary} disabled={redeem.isPending}>
        <Trans>Redeem</Trans>
      </button>
      {redeem.data && (
        <p role="status" className={fieldStyles.success}>
          {redeem.data.message}
        </p>
      )}
      <FormError message={problem} />
    </form>
  )
}
