import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type { TopUpQueue } from '../../contract/console'
import { REJECT_REASON_MAX_LENGTH } from '../../contract/constants'
import { button } from '../../ui/button.css'
import { ChargeStatusBadge } from '../../ui/charge-labels'
import { useMethodName } from '../../ui/method-name'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/empty-state'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { consoleApi, consoleQueries } from './queries'
import * as styles from './console.css'
import { visuallyHidden } from '../../ui/visually-hidden.css'

type Receipt = TopUpQueue[number]

/**
 * The waiting receipts, one open at a time (the oldest first): the photo beside the amount,
 * method and customer, approve or reject with a reason; the next one opens after a decision,
 * with the focus on it. New receipts come in as the list refreshes.
 */
export function TopUpsPage() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const queue = useQuery(consoleQueries.topUps())
  const [openId, setOpenId] = useState<number | null>(null)
  const [decided, setDecided] = useState<ReadonlySet<number>>(new Set())
  const [notice, setNotice] = useState<string | null>(null)
  const [moved, setMoved] = useState(false)

  if (queue.error) return <LoadProblem error={queue.error} onRetry={() => void queue.refetch()} />
  if (!queue.data) return <Loading />
  const waiting = queue.data.filter((r) => !decided.has(r.id))
  const open = waiting.find((r) => r.id === openId) ?? waiting[0]

  const onDecided = (id: number, message: string) => {
    setDecided((before) => new Set(before).add(id))
    setNotice(message)
    setOpenId(null)
    setMoved(true)
    void queryClient.invalidateQueries({ queryKey: consoleQueries.today().queryKey })
    void queryClient.invalidateQueries({ queryKey: consoleQueries.topUps().queryKey })
  }

  return (
    <section className={surface.surface} aria-labelledby="top-ups-heading">
      <h1 id="top-ups-heading" className={surface.heading}>
        <Trans>Top-ups waiting ({waiting.length})</Trans>
      </h1>
      <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
        {notice}
      </p>
      {open ? (
        <Review key={open.id} receipt={open} focus={moved} onDecided={onDecided} />
      ) : (
        <EmptyState>
          <Trans>No top-ups are waiting.</Trans>
        </EmptyState>
      )}
      {waiting.length > 1 && (
        <>
          <h2 className={surface.subheading}>
            <Trans>Also waiting</Trans>
          </h2>
          <ul className={styles.rest}>
            {waiting
              .filter((r) => r !== open)
              .map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className={`${button.secondary} ${styles.restButton}`}
                    onClick={() => {
                      setOpenId(r.id)
                      setMoved(true)
                    }}
                  >
                    {/* The name says what the button does; the eye reads the number and the
                        customer (axe: a label must contain what is shown, so none is set). */}
                    <span className={visuallyHidden}>
                      {t`Open top-up #${r.id} of ${r.customer.username}`}
                    </span>
                    <span aria-hidden="true">
                      #{r.id} <bdi>{r.customer.username}</bdi>
                    </span>
                    <Price amount={r.value} currency={r.currency} />
                  </button>
                </li>
              ))}
          </ul>
        </>
      )}
    </section>
  )
}

function Review({
  receipt,
  focus,
  onDecided,
}: {
  receipt: Receipt
  focus: boolean
  onDecided: (id: number, message: string) => void
}) {
  const { t } = useLingui()
  const methodName = useMethodName()
  const heading = useRef<HTMLHeadingElement>(null)
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const { id, customer } = receipt

  useEffect(() => {
    if (focus) heading.current?.focus()
  }, [focus])

  const fail = (error: Error) => {
    // Decided meanwhile by another operator: it leaves the queue all the same.
    if (error instanceof ApiError && error.status === 409) onDecided(id, error.message)
    else setProblem(error.message)
  }
  const approve = useMutation({
    mutationFn: () => consoleApi.approve(id),
    onSuccess: (reply) => onDecided(id, reply.message),
    onError: fail,
  })
  const reject = useMutation({
    mutationFn: (text: string) => consoleApi.reject(id, text),
    onSuccess: (reply) => onDecided(id, reply.message),
    onError: fail,
  })
  const busy = approve.isPending || reject.isPending

  const submitReject = (event: FormEvent) => {
    event.preventDefault()
    if (!reason.trim()) {
      setProblem(t`Write the reason the customer will read.`)
      return
    }
    setProblem(null)
    reject.mutate(reason.trim())
  }

  return (
    <article className={styles.review} aria-labelledby={`top-up-${id}`}>
      <div className={styles.factsArea}>
        <h2 id={`top-up-${id}`} ref={heading} tabIndex={-1} className={surface.subheading}>
          <Trans>
            Top-up #{id}: <Price amount={receipt.value} currency={receipt.currency} /> by{' '}
            {methodName(receipt.name)}
          </Trans>
        </h2>
        <dl className={styles.facts}>
          <dt className={styles.term}>
            <Trans>Customer</Trans>
          </dt>
          <dd className={styles.value}>
            <bdi>{customer.username}</bdi>
          </dd>
          <dt className={styles.term}>
            <Trans>Phone</Trans>
          </dt>
          <dd className={styles.value}>
            <bdi dir="ltr">{customer.phone_number}</bdi>
          </dd>
          <dt className={styles.term}>
            <Trans>Credits</Trans>
          </dt>
          <dd className={styles.value}>
            <Price amount={receipt.shipping_value} currency={receipt.currency} />{' '}
            <Trans>(after {receipt.tax_percentage}% tax)</Trans>
          </dd>
          <dt className={styles.term}>
            <Trans>Balance</Trans>
          </dt>
          <dd className={styles.value}>
            <Price amount={customer.balance} currency={customer.currency} />
          </dd>
          <dt className={styles.term}>
            <Trans>Sent</Trans>
          </dt>
          <dd className={styles.value}>
            <DateTime at={receipt.created_at} date={receipt.date} time={receipt.time} />
          </dd>
        </dl>
      </div>
      <div className={styles.photoArea}>
        <ReceiptPhoto path={receipt.image} />
      </div>
      <div className={styles.moreArea}>
        <h3 className={surface.subheading}>
          <Trans>Their last top-ups</Trans>
        </h3>
        {customer.history.length === 0 ? (
          <p className={surface.muted}>
            <Trans>None before this one.</Trans>
          </p>
        ) : (
          <ul className={styles.history}>
            {customer.history.map((h) => (
              <li key={h.id}>
                #{h.id} {methodName(h.name)} <Price amount={h.value} currency={h.currency} />{' '}
                <ChargeStatusBadge status={h.status} />
              </li>
            ))}
          </ul>
        )}
        {rejecting && (
          <form id={`reject-${id}`} className={styles.form} onSubmit={submitReject} noValidate>
            <Field id={`reason-${id}`} label={<Trans>Reason the customer will read</Trans>}>
              <textarea
                id={`reason-${id}`}
                className={`${fieldStyles.input} ${styles.reason}`}
                value={reason}
                maxLength={REJECT_REASON_MAX_LENGTH}
                aria-invalid={problem !== null && !reason.trim()}
                onChange={(event) => setReason(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') setRejecting(false)
                }}
                // The field appears when asked for: the typing starts there.
                autoFocus
              />
            </Field>
          </form>
        )}
        <FormError message={problem} />
      </div>
      <div className={styles.decide}>
        {rejecting ? (
          <>
            <button
              type="submit"
              form={`reject-${id}`}
              className={`${button.primary} ${styles.wideButton}`}
              disabled={busy}
            >
              {reject.isPending ? <Trans>Please wait…</Trans> : <Trans>Reject</Trans>}
            </button>
            <button
              type="button"
              className={`${button.secondary} ${styles.wideButton}`}
              disabled={busy}
              onClick={() => {
                setRejecting(false)
                setProblem(null)
              }}
            >
              <Trans>Cancel</Trans>
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className={`${button.primary} ${styles.wideButton}`}
              disabled={busy}
              onClick={() => approve.mutate()}
            >
              {approve.isPending ? <Trans>Please wait…</Trans> : <Trans>Approve</Trans>}
            </button>
            <button
              type="button"
              className={`${button.secondary} ${styles.wideButton}`}
              disabled={busy}
              onClick={() => setRejecting(true)}
            >
              <Trans>Reject…</Trans>
            </button>
          </>
        )}
      </div>
    </article>
  )
}

/** The receipt photo, fetched with the console's cookie. */
function ReceiptPhoto({ path }: { path: string | null }) {
  const { t } = useLingui()
  const photo = useQuery({ ...consoleQueries.receipt(path ?? ''), enabled: path !== null })
  if (path === null)
    return (
      <p className={surface.muted}>
        <Trans>No receipt photo.</Trans>
      </p>
    )
  if (photo.error) return <LoadProblem error={photo.error} onRetry={() => void photo.refetch()} />
  if (!photo.data)
    return (
      <div className={styles.photoWaiting}>
        <Loading />
      </div>
    )
  return <img className={styles.photo} src={photo.data} alt={t`The customer's receipt`} />
}
