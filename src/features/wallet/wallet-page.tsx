import { useQuery } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { PaymentLog, PaymentLogPage, WalletLogStatus } from '../../contract/wallet'
import type { Column } from '../../ui/data-list'
import { DateTime } from '../../ui/date-time'
import { useDatedListQuery } from '../../ui/dated-list'
import { ListFilters, type DatedListSearch } from '../../ui/list-filters'
import { Price } from '../../ui/price'
import { PagedTable } from '../../ui/paged-table'
import * as surface from '../../ui/surface.css'
import { LogStatusBadge } from '../../ui/charge-labels'
import { walletQueries } from './queries'
import * as styles from './wallet.css'

export type WalletSearch = DatedListSearch<WalletLogStatus>

/** The wallet: its balance, what came in and went out, and every movement, filtered. */
export function WalletPage({ search }: { search: WalletSearch }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const query = useQuery(walletQueries.logs(useDatedListQuery(search, 'value')))
  const { data } = query
  const user = data?.user
  const change = (next: Partial<WalletSearch>) =>
    void navigate({ to: '/wallet', search: { ...search, page: 1, ...next } })

  const detail = (log: PaymentLog, text: string | number) => (
    <AppLink to="/wallet/$id" params={{ id: String(log.id) }}>
      {text}
    </AppLink>
  )
  const columns: Column<PaymentLog>[] = [
    { header: '#', cell: (log) => detail(log, log.id) },
    { header: t`Process`, cell: (log) => detail(log, log.name), primary: true },
    { header: t`Status`, cell: (log) => <LogStatusBadge status={log.status} /> },
    { header: t`Value`, cell: (log) => <Price amount={log.value} currency={log.currency} /> },
    {
      header: t`Balance after`,
      cell: (log) => <Price amount={log.current_balance} currency={log.currency} />,
    },
    {
      header: t`Date`,
      cell: (log) => <DateTime at={log.created_at} date={log.date} time={log.time} />,
    },
  ]

  return (
    <section className={surface.surface} aria-labelledby="wallet-heading">
      <h1 id="wallet-heading" className={surface.heading}>
        <Trans>Wallet</Trans>
      </h1>
      {/* The cards stand before the reply comes, so it does not push the list down. */}
      <dl className={styles.cards}>
        <BalanceCard
          label={<Trans>Current balance</Trans>}
          amount={user?.current_balance}
          currency={user?.currency}
        />
        <BalanceCard
          label={<Trans>Shipping total</Trans>}
          amount={user?.total_shipped}
          currency={user?.currency}
        />
        <BalanceCard
          label={<Trans>Total payment</Trans>}
          amount={user?.total_spent}
          currency={user?.currency}
        />
      </dl>
      <ListFilters
        id="wallet"
        value={search}
        onChange={change}
        statuses={[
          { value: '', label: t`All` },
          { value: 'Discounted', label: t`Exports` },
          { value: 'Charged', label: t`Imports` },
        ]}
      />
      <PagedTable
        query={query}
        label={t`Payment logs`}
        columns={columns}
        rowKey={(log) => log.id}
        page={search.page}
        link={(page, props) => <AppLink to="/wallet" search={{ ...search, page }} {...props} />}
      />
    </section>
  )
}

/** One of the wallet's totals; a bar of its height until the reply comes. */
function BalanceCard({
  label,
  amount,
  currency,
}: {
  label: ReactNode
  amount: PaymentLogPage['user']['current_balance'] | undefined
  currency?: PaymentLogPage['user']['currency']
}) {
  return (
    <div className={styles.card}>
      <dt className={styles.cardLabel}>{label}</dt>
      <dd className={styles.cardAmount}>
        {amount !== undefined && currency ? (
          <Price amount={amount} currency={currency} />
        ) : (
          <span className={styles.cardPending} />
        )}
      </dd>
    </div>
  )
}
