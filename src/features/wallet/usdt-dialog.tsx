// Its own chunk, with the dialog and the QR code: loaded once a USDT payment is requested.
import { useEffect, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import { USER_KEY } from '../../api/session'
import type { UsdtPayment } from '../../contract/wallet'
import { button } from '../../ui/button.css'
import { CopyButton } from '../../ui/copy-button'
import { Dialog } from '../../ui/dialog'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { QrCode } from './qr-code'
import { usdtQueries } from './charging-queries'
import * as styles from './wallet.css'

import { NETWORK_NAMES } from './usdt'

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
