import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Trans, useLingui } from '@lingui/react/macro'
import type { Order, ORDER_FILTER_STATUSES } from '../../contract/orders'
import type { Column } from '../../ui/data-list'
import { DateTime } from '../../ui/date-time'
import { useDatedListQuery } from '../../ui/dated-list'
import { ListFilters, type DatedListSearch } from '../../ui/list-filters'
import { Price } from '../../ui/price'
import { PagedTable } from '../../ui/paged-table'
import * as surface from '../../ui/surface.css'
import { orderQueries } from './queries'
import { OrderStatusBadge } from './status'

export type OrdersSearch = DatedListSearch<(typeof ORDER_FILTER_STATUSES)[number]>

const itemOf = (order: Order) =>
  order.package_name ? `${order.product_name} — ${order.package_name}` : order.product_name

export function OrdersPage({ search }: { search: OrdersSearch }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const filters = useDatedListQuery(search, 'total_price')
  const query = useQuery({
    ...orderQueries.list(filters),
    placeholderData: keepPreviousData,
  })
  const change = (next: Partial<OrdersSearch>) =>
    void navigate({ to: '/Orders', search: { ...search, page: 1, ...next } })

  const detail = (order: Order, text: string | number) => (
    <AppLink to="/Orders/$id" params={{ id: String(order.id) }}>
      {text}
    </AppLink>
  )
  const columns: Column<Order>[] = [
    { header: '#', cell: (order) => detail(order, order.id) },
    { header: t`Product`, cell: (order) => detail(order, itemOf(order)), primary: true },
    { header: t`Quantity`, cell: (order) => order.quantity },
    {
      header: t`Total`,
      cell: (order) => <Price amount={order.total_price} currency={order.currency} />,
    },
    { header: t`Status`, cell: (order) => <OrderStatusBadge status={order.status} /> },
    {
      header: t`Date`,
      cell: (order) => <DateTime at={order.created_at} date={order.date} time={order.time} />,
    },
  ]

  return (
    <section className={surface.surface} aria-labelledby="orders-heading">
      <h1 id="orders-heading" className={surface.heading}>
        <Trans>Orders</Trans>
      </h1>
      <ListFilters
        id="orders"
        value={search}
        onChange={change}
        statuses={[
          { value: '', label: t`All` },
          { value: 'COMPLETED', label: t`Completed` },
          { value: 'CANCELED', label: t`Canceled` },
          { value: 'WAITING', label: t`Waiting` },
        ]}
      />
      <PagedTable
        query={query}
        label={t`Orders`}
        columns={columns}
        rowKey={(o) => o.id}
        page={search.page}
        link={(page, props) => <AppLink to="/Orders" search={{ ...search, page }} {...props} />}
      />
    </section>
  )
}
