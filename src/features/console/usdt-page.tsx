import { useState, type FormEvent } from 'react'
import * as Tabs from '@radix-ui/react-tabs'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import { useDirection } from '../../i18n/use-locale'
import { TX_HASH_PATTERN } from '../../contract/constants'
import type { UnmatchedTransfer, UsdtRequest, UsdtState } from '../../contract/console-usdt'
import { button } from '../../ui/button.css'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/empty-state'
import { TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import * as surface from '../../ui/surface.css'
import { settingsApi, settingsQueries } from './settings-queries'
import * as styles from './console.css'
import * as own from './settings.css'

type Tab = UsdtState | 'UNMATCHED'

/**
 * USDT top-ups (docs/api.md, Console: USDT): the open, paid and expired requests, and the
 * transfers that matched none with the requests they could belong to. An open or expired
 * request is confirmed with its transfer's hash, once, however many confirm it.
 */
export function UsdtPage() {
  const { t } = useLingui()
  const [tab, setTab] = useState<Tab>('OPEN')
  const dir = useDirection()
  const tabs: [Tab, string][] = [
    ['OPEN', t`Open`],
    ['PAID', t`Paid`],
    ['EXPIRED', t`Expired`],
    ['UNMATCHED', t`Unmatched`],
  ]
  return (
    <section className={surface.surface} aria-labelledby="usdt-heading">
      <h1 id="usdt-heading" className={surface.heading}>
        <Trans>USDT payments</Trans>
      </h1>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)} dir={dir}>
        <Tabs.List className={own.tabList} aria-label={t`USDT payments`}>
          {tabs.map(([value, label]) => (
            <Tabs.Trigger key={value} value={value} className={own.tab}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {tabs.map(([value]) => (
          <Tabs.Content key={value} value={value} className={own.tabPanel}>
            {value === 'UNMATCHED' ? <Unmatched /> : <Requests state={value} />}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  )
}

function Requests({ state }: { state: UsdtState }) {
  const list = useQuery(settingsQueries.usdt(state))
  if (list.error) return <LoadProblem error={list.error} onRetry={() => void list.refetch()} />
  if (!list.data) return <Loading />
  if (list.data.length === 0)
    return (
      <EmptyState>
        <Trans>No USDT payments here.</Trans>
      </EmptyState>
    )
  return (
    <ul className={own.cards}>
      {list.data.map((request) => (
        <li key={request.id} className={own.card}>
          <RequestFacts request={request} />
          {request.state !== 'PAID' && <Confirm request={request} />}
        </li>
      ))}
    </ul>
  )
}

function RequestFacts({ request }: { request: UsdtRequest }) {
  return (
    <dl className={styles.facts}>
      <dt className={styles.term}>
        <Trans>Payment</Trans>
      </dt>
      <dd className={styles.value}>
        #{request.id} <bdi>{request.username}</bdi>
      </dd>
      <dt className={styles.term}>
        <Trans>Exact amount</Trans>
      </dt>
      <dd className={styles.value}>
        <bdi dir="ltr">
          {request.unique_amount} USDT {request.network.toUpperCase()}
        </bdi>
      </dd>
      <dt className={styles.term}>
        <Trans>Asked</Trans>
      </dt>
      <dd className={styles.value}>
        <DateTime at={request.created_at} date="" time="" />
      </dd>
      {request.tx_hash && (
        <>
          <dt className={styles.term}>
            <Trans>Transaction</Trans>
          </dt>
          <dd className={`${styles.value} ${own.hash}`}>
            <bdi dir="ltr">{request.tx_hash}</bdi>
          </dd>
        </>
      )}
    </dl>
  )
}

/** The hash of the transfer that paid the request: credits it once. */
function Confirm({ request }: { request: UsdtRequest }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [hash, setHash] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const confirm = useMutation({
    mutationFn: () => settingsApi.confirm(request.id, hash.trim()),
    onSuccess: (reply) => {
      setProblem(null)
      setDone(reply.message)
      // Every USDT list (its key's first two parts) and the badge read again.
      void queryClient.invalidateQueries({
        queryKey: settingsQueries.unmatched().queryKey.slice(0, 2),
      })
      void queryClient.invalidateQueries({ queryKey: settingsQueries.alerts().queryKey })
    },
    onError: (error) => {
      const field = error instanceof ApiError ? error.fieldErrors.tx_hash?.[0] : undefined
      setProblem(field ?? error.message)
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!TX_HASH_PATTERN.test(hash.trim())) {
      setProblem(t`Paste the transaction hash: 64 hexadecimal digits (0x first on BEP20).`)
      return
    }
    setProblem(null)
    confirm.mutate()
  }
  if (done)
    return (
      <p role="status" className={fieldStyles.success}>
        {done}
      </p>
    )
  const id = `confirm-${request.id}`
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        id={id}
        label={<Trans>Transaction hash of payment #{request.id}</Trans>}
        value={hash}
        onValue={setHash}
        invalid={problem !== null}
        dir="ltr"
        autoCapitalize="none"
        autoComplete="off"
        spellCheck={false}
      />
      <button type="submit" className={button.primary} disabled={confirm.isPending}>
        {confirm.isPending ? <Trans>Please wait…</Trans> : <Trans>Confirm payment</Trans>}
      </button>
      <FormError message={problem} />
    </form>
  )
}

function Unmatched() {
  const list = useQuery(settingsQueries.unmatched())
  if (list.error) return <LoadProblem error={list.error} onRetry={() => void list.refetch()} />
  if (!list.data) return <Loading />
  if (list.data.length === 0)
    return (
      <EmptyState>
        <Trans>Every transfer matched its payment.</Trans>
      </EmptyState>
    )
  return (
    <ul className={own.cards}>
      {list.data.map((transfer) => (
        <li key={transfer.id} className={own.card}>
          <TransferFacts transfer={transfer} />
          <h3 className={surface.subheading}>
            <Trans>Could be</Trans>
          </h3>
          {transfer.candidates.length === 0 ? (
            <p className={surface.muted}>
              <Trans>No open payment of this amount around that time.</Trans>
            </p>
          ) : (
            <ul className={own.cards}>
              {transfer.candidates.map((request) => (
                <li key={request.id} className={own.card}>
                  <RequestFacts request={request} />
                  <Confirm request={request} />
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  )
}

function TransferFacts({ transfer }: { transfer: UnmatchedTransfer }) {
  const { t } = useLingui()
  const why: Record<string, string> = {
    LATE: t`Arrived after its payment expired`,
    EXTRA: t`Its payment was already paid`,
    UNMATCHED: t`No payment has this exact amount`,
    INEXACT: t`Not an amount a payment asks for`,
  }
  return (
    <dl className={styles.facts}>
      <dt className={styles.term}>
        <Trans>Transfer</Trans>
      </dt>
      <dd className={styles.value}>
        <bdi dir="ltr">
          {transfer.amount} USDT {transfer.network.toUpperCase()}
        </bdi>
      </dd>
      <dt className={styles.term}>
        <Trans>Why</Trans>
      </dt>
      <dd className={styles.value}>{why[transfer.outcome] ?? transfer.outcome}</dd>
      <dt className={styles.term}>
        <Trans>Received</Trans>
      </dt>
      <dd className={styles.value}>
        <DateTime at={transfer.block_time} date="" time="" />
      </dd>
      <dt className={styles.term}>
        <Trans>Transaction</Trans>
      </dt>
      <dd className={`${styles.value} ${own.hash}`}>
        <bdi dir="ltr">{transfer.tx_hash}</bdi>
      </dd>
    </dl>
  )
}
