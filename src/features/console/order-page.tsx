import { useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type { ConsoleOrder } from '../../contract/console-orders'
import {
  CODE_MAX_LENGTH,
  CODES_MAX,
  NOTE_MAX_LENGTH,
  REJECT_REASON_MAX_LENGTH,
} from '../../contract/constants'
import { button } from '../../ui/button.css'
import { CopyButton } from '../../ui/copy-button'
import { DateTime } from '../../ui/date-time'
import { Details } from '../../ui/details'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink } from '../../ui/nav'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { CONSOLE_ORDER_LISTS, consoleOrderApi, consoleOrderQueries } from './orders-queries'
import { ConsoleOrderStatus } from './order-status'
import { consoleQueries } from './queries'
import * as styles from './orders.css'

/**
 * One order for the operator: what the customer entered, the money, the delivery and the
 * hand-over, its history; and, while it is open, complete it with codes, cancel it with a
 * reason (refunded once), or send a failed hand-over again.
 */
export function OrderPage({ id }: { id: number }) {
  const order = useQuery(consoleOrderQueries.detail(id))
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <section className={surface.surface} aria-labelledby="order-heading">
      <AppLink to="/admin/orders" className={button.ghost}>
        <Trans>All orders</Trans>
      </AppLink>
      <p role="status" className={fieldStyles.success}>
        {notice}
      </p>
      {order.error ? (
        <LoadProblem error={order.error} onRetry={() => void order.refetch()} />
      ) : !order.data ? (
        <Loading />
      ) : (
        <Order order={order.data} onDone={setNotice} />
      )}
    </section>
  )
}

function Order({ order, onDone }: { order: ConsoleOrder; onDone: (message: string) => void }) {
  const { t } = useLingui()
  const open = order.status === 'WAITING' || order.status === 'FAILED'
  const entered: Array<[string, ReactNode]> = [
    [t`Player number`, order.player_number && <bdi dir="ltr">{order.player_number}</bdi>],
    [t`Player name`, order.player_name && <bdi>{order.player_name}</bdi>],
    [t`Service`, order.service_type],
    [t`Link`, order.social_link && <bdi dir="ltr">{order.social_link}</bdi>],
    [t`Wallet address`, order.wallet_address && <bdi dir="ltr">{order.wallet_address}</bdi>],
    [
      t`Email or phone number`,
      order.email_or_phone_number && <bdi dir="ltr">{order.email_or_phone_number}</bdi>,
    ],
    [t`Password`, order.password && <bdi dir="ltr">{order.password}</bdi>],
    [t`Contact number`, order.contact_number && <bdi dir="ltr">{order.contact_number}</bdi>],
    ...(order.requirements ?? []).map((r): [string, ReactNode] => [
      r.label,
      <bdi key={r.name}>{r.value}</bdi>,
    ]),
  ]
  const hasEntered = entered.some(([, value]) => value)
  return (
    <>
      <div className={styles.titleRow}>
        <h1 id="order-heading" className={surface.heading}>
          <Trans>Order #{order.id}</Trans>
        </h1>
        <ConsoleOrderStatus status={order.status} />
      </div>
      <div className={styles.layout}>
        <div className={styles.column}>
          <Details
            rows={[
              [t`Product`, <bdi key="p">{order.product_name}</bdi>],
              [t`Package`, order.package_name && <bdi>{order.package_name}</bdi>],
              [t`Quantity`, order.quantity],
              [t`Taken from the wallet`, <Price key="d" {...order.debit} />],
              [t`Refunded`, order.refund && <Price {...order.refund} />],
              [t`Customer`, <bdi key="c">{order.customer.username}</bdi>],
              [
                t`Phone`,
                <bdi key="ph" dir="ltr">
                  {order.customer.phone_number}
                </bdi>,
              ],
              [
                t`Balance`,
                <Price
                  key="b"
                  amount={order.customer.balance}
                  currency={order.customer.currency}
                />,
              ],
              [
                t`Date`,
                <DateTime key="t" at={order.created_at} date={order.date} time={order.time} />,
              ],
            ]}
          />
          {hasEntered && (
            <>
              <h2 className={surface.subheading}>
                <Trans>What the customer entered</Trans>
              </h2>
              <Details rows={entered} />
            </>
          )}
          <Delivery order={order} />
          <HandOver order={order} />
          <History order={order} />
        </div>
        {open && (
          <div className={styles.column}>
            {order.can_retry && <Retry order={order} onDone={onDone} />}
            <Complete order={order} onDone={onDone} />
            <Cancel order={order} onDone={onDone} />
          </div>
        )}
      </div>
    </>
  )
}

function Delivery({ order }: { order: ConsoleOrder }) {
  const { t } = useLingui()
  if (order.status === 'WAITING' || order.status === 'FAILED') return null
  return (
    <>
      <h2 className={surface.subheading}>
        <Trans>Delivery</Trans>
      </h2>
      {order.item_codes.length > 0 && (
        <ul className={styles.codes} aria-label={t`Codes`}>
          {order.item_codes.map(({ code }, i) => (
            <li key={i} className={styles.code}>
              <bdi dir="ltr">{code}</bdi>
              <CopyButton text={code} label={t`Copy code ${code}`} feedbackMs={2000} />
            </li>
          ))}
        </ul>
      )}
      <Details
        rows={[
          [t`Note`, order.accept_note],
          [t`Expiry date`, order.expiry_date],
          [t`Refuse reason`, order.refuse_reason],
        ]}
      />
    </>
  )
}

function HandOver({ order }: { order: ConsoleOrder }) {
  const { t } = useLingui()
  const up = order.upstream
  if (!order.provider_ref && !up && order.status !== 'FAILED') return null
  return (
    <>
      <h2 className={surface.subheading}>
        <Trans>Hand-over</Trans>
      </h2>
      <Details
        rows={[
          [
            t`Provider's reference`,
            order.provider_ref && <bdi dir="ltr">{order.provider_ref}</bdi>,
          ],
          [
            t`Upstream panel`,
            up && (
              <bdi dir="ltr">
                {[up.panel, up.service, up.state, up.upstream_id, up.upstream_status, up.reason]
                  .filter(Boolean)
                  .join(' · ')}
              </bdi>
            ),
          ],
        ]}
      />
    </>
  )
}

function History({ order }: { order: ConsoleOrder }) {
  const { t } = useLingui()
  const events: Record<ConsoleOrder['history'][number]['event'], string> = {
    placed: t`Placed`,
    completed: t`Completed`,
    canceled: t`Canceled`,
    hand_over_retried: t`Hand-over sent again`,
    customer_notified: t`Customer notified`,
  }
  return (
    <>
      <h2 className={surface.subheading}>
        <Trans>History</Trans>
      </h2>
      <ol className={styles.history}>
        {order.history.map((h, i) => (
          <li key={i}>
            <DateTime at={h.at} date="" time="" /> — {events[h.event]}
            {h.actor && (
              <>
                {' '}
                (<bdi>{h.actor.replace(/^console:/, '')}</bdi>)
              </>
            )}
          </li>
        ))}
      </ol>
    </>
  )
}

/** After an action: the message, and the order, the list and today's counts read again. */
function useAction<A>(
  order: ConsoleOrder,
  run: (arg: A) => Promise<{ message: string }>,
  onDone: (message: string) => void,
) {
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<{ fields: string[]; message: string } | null>(null)
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: consoleOrderQueries.detail(order.id).queryKey })
    void queryClient.invalidateQueries({ queryKey: CONSOLE_ORDER_LISTS })
    void queryClient.invalidateQueries({ queryKey: consoleQueries.today().queryKey })
  }
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: (reply) => {
      setProblem(null)
      onDone(reply.message)
      refresh()
    },
    onError: (error) => {
      // Decided meanwhile by another operator: say so, and show it as it is now.
      if (error instanceof ApiError && error.status === 409) {
        onDone(error.message)
        refresh()
        return
      }
      const fields = error instanceof ApiError ? Object.keys(error.fieldErrors) : []
      setProblem({ fields, message: error.message })
    },
  })
  return { mutation, problem, setProblem }
}

function Complete({ order, onDone }: { order: ConsoleOrder; onDone: (m: string) => void }) {
  const [codes, setCodes] = useState('')
  const [note, setNote] = useState('')
  const [expiry, setExpiry] = useState('')
  const { mutation, problem } = useAction(
    order,
    () => consoleOrderApi.complete(order.id, { codes, note, expiry }),
    onDone,
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    mutation.mutate(undefined)
  }
  const id = `complete-${order.id}`
  return (
    <form className={styles.action} onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={surface.subheading}>
        <Trans>Complete the order</Trans>
      </h2>
      <Field id={`${id}-codes`} label={<Trans>Codes, one a line</Trans>}>
        <textarea
          id={`${id}-codes`}
          className={`${fieldStyles.input} ${styles.textarea}`}
          value={codes}
          aria-invalid={problem?.fields.includes('codes')}
          onChange={(event) => setCodes(event.target.value)}
          maxLength={CODES_MAX * (CODE_MAX_LENGTH + 1)}
          autoCapitalize="none"
          spellCheck={false}
          dir="ltr"
        />
      </Field>
      <TextField
        id={`${id}-note`}
        label={<Trans>Note</Trans>}
        value={note}
        onValue={setNote}
        maxLength={NOTE_MAX_LENGTH}
        invalid={problem?.fields.includes('note')}
      />
      <TextField
        id={`${id}-expiry`}
        label={<Trans>Expiry date</Trans>}
        value={expiry}
        onValue={setExpiry}
        type="date"
        invalid={problem?.fields.includes('expiry')}
      />
      <button type="submit" className={button.primary} disabled={mutation.isPending}>
        {mutation.isPending ? <Trans>Please wait…</Trans> : <Trans>Complete the order</Trans>}
      </button>
      <FormError message={problem?.message} />
    </form>
  )
}

function Cancel({ order, onDone }: { order: ConsoleOrder; onDone: (m: string) => void }) {
  const { t } = useLingui()
  const [reason, setReason] = useState('')
  const { mutation, problem, setProblem } = useAction(
    order,
    () => consoleOrderApi.cancel(order.id, reason.trim()),
    onDone,
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!reason.trim()) {
      setProblem({ fields: ['reason'], message: t`Write the reason the customer will read.` })
      return
    }
    mutation.mutate(undefined)
  }
  const id = `cancel-${order.id}`
  return (
    <form className={styles.action} onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={surface.subheading}>
        <Trans>Cancel and refund</Trans>
      </h2>
      <p className={surface.muted}>
        <Trans>
          <Price {...order.debit} /> goes back to the customer's wallet, once.
        </Trans>
      </p>
      <Field id={`${id}-reason`} label={<Trans>Reason the customer will read</Trans>}>
        <textarea
          id={`${id}-reason`}
          className={`${fieldStyles.input} ${styles.textarea}`}
          value={reason}
          maxLength={REJECT_REASON_MAX_LENGTH}
          aria-invalid={problem?.fields.includes('reason')}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
      <button type="submit" className={button.secondary} disabled={mutation.isPending}>
        {mutation.isPending ? <Trans>Please wait…</Trans> : <Trans>Cancel and refund</Trans>}
      </button>
      <FormError message={problem?.message} />
    </form>
  )
}

function Retry({ order, onDone }: { order: ConsoleOrder; onDone: (m: string) => void }) {
  const { mutation, problem } = useAction(order, () => consoleOrderApi.retry(order.id), onDone)
  return (
    <div className={styles.action}>
      <h2 className={surface.subheading}>
        <Trans>Hand-over failed</Trans>
      </h2>
      <button
        type="button"
        className={button.primary}
        disabled={mutation.isPending}
        onClick={() => mutation.mutate(undefined)}
      >
        {mutation.isPending ? <Trans>Please wait…</Trans> : <Trans>Retry the hand-over</Trans>}
      </button>
      <FormError message={problem?.message} />
    </div>
  )
}
