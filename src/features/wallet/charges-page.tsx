import { useQuery } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ChargingProcess } from '../../contract/wallet'
import type { Column } from '../../ui/data-list'
import { DateTime } from '../../ui/date-time'
import { SortFilter } from '../../ui/list-filters'
import { sortQuery, type ListSortChoice } from '../../ui/list-sort'
import { Price } from '../../ui/price'
import { PagedTable } from '../../ui/paged-table'
import * as surface from '../../ui/surface.css'
import { ChargeStatusBadge } from '../../ui/charge-labels'
import { useMethodName } from '../../ui/method-name'
import { walletQueries } from './queries'

/** The customer's top-ups (shipping payments) and what became of each. */
export function ChargesPage({ page, sort }: { page: number; sort: ListSortChoice }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const methodName = useMethodName()
  const query = useQuery(walletQueries.charges(page, sortQuery(sort, 'value')))

  const detail = (charge: ChargingProcess, text: string | number) => (
    <AppLink to="/shipping-payments/$id" params={{ id: String(charge.id) }}>
      {text}
    </AppLink>
  )
  const columns: Column<ChargingProcess>[] = [
    { header: '#', cell: (c) => detail(c, c.id) },
    { header: t`Method`, cell: (c) => detail(c, methodName(c.name)), primary: true },
    { header: t`Value`, cell: (c) => <Price amount={c.value} currency={c.currency} /> },
    {
      header: t`Credited`,
      cell: (c) => <Price amount={c.shipping_value} currency={c.currency} />,
    },
    { header: t`Status`, cell: (c) => <ChargeStatusBadge status={c.status} /> },
    { header: t`Date`, cell: (c) => <DateTime at={c.created_at} date={c.date} time={c.time} /> },
  ]

  return (
    <section className={surface.surface} aria-labelledby="charges-heading">
      <h1 id="charges-heading" className={surface.heading}>
        <Trans>Shipping payments</Trans>
      </h1>
      <p className={surface.muted}>
        <AppLink to="/charging-the-wallet">
          <Trans>Charge the wallet</Trans>
        </AppLink>
      </p>
      <div className={surface.filters}>
        <SortFilter
          id="charges-sort"
          value={sort}
          onChange={(next) =>
            void navigate({ to: '/shipping-payments', search: { sort: next, page: 1 } })
          }
          amounts
        />
      </div>
      <PagedTable
        query={query}
        label={t`Shipping payments`}
        columns={columns}
        rowKey={(c) => c.id}
        page={page}
        link={(n, props) => (
          <AppLink to="/shipping-payments" search={{ sort, page: n }} {...props} />
        )}
      />
    </section>
  )
}
