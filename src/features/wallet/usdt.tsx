import { useEffect, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { USER_KEY } from '../../api/session'
import { USDT_MIN, type UsdtNetwork, type UsdtPayment } from '../../contract/wallet'
import { netOfTax } from '../../domain/money'
import { button } from '../../ui/button.css'
import { CopyButton } from '../../ui/copy-button'
import { Dialog } from '../../ui/dialog'
import { TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { SelectFilter } from '../../ui/list-filters'
import { Price } from '../../ui/price'
import { useOnline } from '../../ui/use-online'
import { QrCode } from './qr-code'
import { usdtApi, usdtQueries } from './queries'
import * as styles from './wallet.css'

const NETWORK_NAMES: Record<UsdtNetwork, string> = { trc20: 'TRC20 (Tron)', bep20: 'BEP20 (BSC)' }

/** The USDT form: an amount and a network; the store answers with where and how much to send. */
export function UsdtForm({
  networks,
  tax,
  onRequested,
}: {
  networks: UsdtNetwork[]
  tax: number
  onRequested: (payment: UsdtPayment) => void
}) {
  const { t } = useLingui()
  const online = useOnline()
  const [amount, setAmount] = useState('')
  const [network, setNetwork] = useState<UsdtNetwork>(networks[0]!)
  const [problem, setProblem] = useState<string | null>(null)
  const request = useMutation({
    mutationFn: () => usdtApi.request(amount.trim(), network),
    onSuccess: (payment) => onRequested(payment),
    onError: (error) => setProblem(error.message || t`Error requesting payment`),
  })
  const value = Number(amount.trim())
  const valid = /^\d{1,6}(\.\d{1,2})?$/.test(amount.trim()) && value >= USDT_MIN
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    if (!valid) return setProblem(t`Please enter a valid amount`)
    if (!online) return setProblem(t`You are offline. Connect to the internet to send this.`)
    request.mutate()
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="USDT">
      <TextField
        id="usdt-amount"
        label={<Trans>Amount (USDT)</Trans>}
        type="number"
        min={USDT_MIN}
        step="0.01"
        inputMode="decimal"
        dir="ltr"
        value={amount}
        onValue={setAmount}
        invalid={amount !== '' && !valid}
      />
      <SelectFilter
        id="usdt-network"
        label={<Trans>Network</Trans>}
        value={network}
        onChange={setNetwork}
        options={networks.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))}
      />
      <p className={styles.net}>
        <span>
          <Trans>Credited after {tax} % tax</Trans>
        </span>
        {valid ? <Price amount={netOfTax(amount.trim(), tax)} currency="USD" /> : <span>—</span>}
      </p>
      <button type="submit" className={button.primary} disabled={request.isPending}>
        <Trans>Request payment</Trans>
      </button>
      <FormError message={problem} />
    </form>
  )
}

/** Seconds until `at`, ticking every second. */
function useSecondsUntil(at: string) {
  const left = () => Math.max(0, Math.ceil((Date.parse(at) - Date.now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(timer)
    // left() only reads `at`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at])
  return seconds
}

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`

/**
 * Where and how much to send, and whether it arrived: polled every 5 s while the dialog is open
 * and the page is seen; it stops once the payment is confirmed.
 */
export function UsdtDialog({ payment, onClose }: { payment: UsdtPayment; onClose: () => void }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const queryClient = useQueryClient()
  const check = useQuery({ ...usdtQueries.check(payment.payment_id), initialData: payment })
  const current = check.data
  const paid = current.paid
  const seconds = useSecondsUntil(current.expires_at)
  useEffect(() => {
    // The balance, the history and the top-ups changed.
    if (paid) void queryClient.invalidateQueries({ queryKey: USER_KEY })
  }, [paid, queryClient])
  const network = NETWORK_NAMES[current.network]
  const amount = current.unique_amount
  const left = clock(seconds)
  const expired = current.expired || seconds === 0
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={<Trans>Pay {amount} USDT</Trans>}
      actions={
        <>
          <button type="button" className={button.secondary} onClick={onClose}>
            <Trans>Close</Trans>
          </button>
          <button
            type="button"
            className={button.primary}
            onClick={() => void navigate({ to: '/' })}
          >
            <Trans>Done</Trans>
          </button>
        </>
      }
    >
      {paid ? (
        <p role="status" className={fieldStyles.success}>
          <Trans>Payment confirmed!</Trans>
        </p>
      ) : (
        <>
          <QrCode data={current.qr_code_url} label={t`QR code of the payment on ${network}`} />
          <p className={styles.warning}>
            <Trans>You must pay this exact amount. Do not pay more or less.</Trans>
          </p>
          <div className={styles.copyRow}>
            <bdi dir="ltr" className={styles.exact}>
              {current.unique_amount} USDT
            </bdi>
            <CopyButton text={current.unique_amount} label={t`Copy the amount`} />
          </div>
          <p>
            <Trans>Send it on {network} to:</Trans>
          </p>
          <div className={styles.copyRow}>
            <bdi dir="ltr">{current.wallet_address}</bdi>
            <CopyButton text={current.wallet_address} label={t`Copy the address`} />
          </div>
          <p role="status">
            {expired ? (
              <Trans>This payment request has expired.</Trans>
            ) : (
              <Trans>
                Waiting for payment… <bdi dir="ltr">{left}</bdi>
              </Trans>
            )}
          </p>
          {!expired && (
            <p className={styles.note}>
              <Trans>
                Confirmation takes 2 to 5 minutes; your balance updates by itself once it is
                confirmed.
              </Trans>
            </p>
          )}
          {check.isError && <FormError message={t`Error checking payment status`} />}
        </>
      )}
    </Dialog>
  )
}
