import { useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { USDT_MIN } from '../../contract/constants'
import type { UsdtNetwork, UsdtPayment } from '../../contract/wallet'
import { netOfTax } from '../../domain/money'
import { button } from '../../ui/button.css'
import { SelectField, TextField } from '../../ui/field'
import { FormError } from '../../ui/form-error'
import { Price } from '../../ui/price'
import { useOnline } from '../../ui/use-online'
import { usdtApi } from './charging-queries'
import * as styles from './wallet.css'

export const NETWORK_NAMES: Record<UsdtNetwork, string> = {
  trc20: 'TRC20 (Tron)',
  bep20: 'BEP20 (BSC)',
}

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
      <SelectField
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
