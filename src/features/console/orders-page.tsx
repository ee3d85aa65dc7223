import { useState, type FormEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { ConsoleOrderLine } from '../../contract/console-orders'
import { ORDER_STATUSES } from '../../contract/constants'
import { button } from '../../ui/button.css'
import { DateTime } from '../../ui/date-time'
import { EmptyState } from '../../ui/empty-state'
import { SelectField, TextField } from '../../ui/field'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink, useAppNavigate } from '../../ui/nav'
import { Pagination } from '../../ui/pagination'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { ConsoleOrderStatus, useStatusLabel } from './order-status'
import { consoleOrderQueries } from './orders-queries'
import type { ConsoleOrderSearch } from './orders-search'
import * as styles from './orders.css'

/**
 * Every customer's orders, newest first: searched by customer and product, filtered by status
 * and the store's days (the address keeps the filters, so a link or Back gives the same list).
 */
export function OrdersPage({ search }: { search: ConsoleOrderSearch }) {
  const orders = useQuery(consoleOrderQueries.list(search))
  return (
    <section className={surface.surface} aria-labelledby="orders-heading">
      <h1 id="orders-heading" className={surface.heading}>
        <Trans>Orders</Trans>
      </h1>
      <Filters key={JSON.stringify(search)} search={search} />
      {orders.error ? (
        <LoadProblem error={orders.error} onRetry={() => void orders.refetch()} />
      ) : !orders.data ? (
        <Loading />
      ) : (
        <>
          <p role="status" className={surface.muted}>
            <Trans>Orders found: {orders.data.total}</Trans>
          </p>
          {orders.data.data.length === 0 ? (
            <EmptyState>
              <Trans>No orders match these filters.</Trans>
            </EmptyState>
          ) : (
            <ul className={styles.lines}>
              {orders.data.data.map((order) => (
                <Line key={order.id} order={order} />
              ))}
            </ul>
          )}
          {orders.data.last_page > 1 && (
            <Pagination
              page={orders.data.current_page}
              total={orders.data.total}
              perPage={orders.data.per_page}
              link={(page, props) => (
                <AppLink to="/admin/orders" search={{ ...search, page }} {...props} />
              )}
            />
          )}
        </>
      )}
    </section>
  )
}

function Filters({ search }: { search: ConsoleOrderSearch }) {
  const { t } = useLingui()
  const navigate = useAppNavigate()
  const statusLabel = useStatusLabel()
  // What is typed stays until applied; the address holds what is applied.
  const [draft, setDraft] = useState(search)
  const set = (key: keyof ConsoleOrderSearch) => (value: string) =>
    setDraft((before) => ({ ...before, [key]: value }))
  const apply = (event: FormEvent) => {
    event.preventDefault()
    void navigate({ to: '/admin/orders', search: { ...draft, page: 1 } })
  }
  const filtered = Boolean(
    search.status || search.customer || search.product || search.from || search.to,
  )
  return (
    <form role="search" aria-label={t`Find orders`} className={styles.filters} onSubmit={apply}>
      <TextField
        id="orders-customer"
        label={<Trans>Customer</Trans>}
        value={draft.customer}
        onValue={set('customer')}
        type="search"
        autoCapitalize="none"
        maxLength={100}
      />
      <TextField
        id="orders-product"
        label={<Trans>Product</Trans>}
        value={draft.product}
        onValue={set('product')}
        type="search"
        maxLength={100}
      />
      <SelectField
        id="orders-status"
        label={<Trans>Status</Trans>}
        value={draft.status}
        options={[
          { value: '', label: t`All` },
          ...ORDER_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
        ]}
        onChange={set('status')}
      />
      <div className={styles.days}>
        <TextField
          id="orders-from"
          label={<Trans>Start date</Trans>}
          value={draft.from}
          onValue={set('from')}
          type="date"
        />
        <TextField
          id="orders-to"
          label={<Trans>End date</Trans>}
          value={draft.to}
          onValue={set('to')}
          type="date"
          min={draft.from || undefined}
        />
      </div>
      <div className={styles.buttons}>
        <button type="submit" className={button.primary}>
          <Trans>Search</Trans>
        </button>
        {filtered && (
          <AppLink to="/admin/orders" className={button.secondary}>
            <Trans>Clear</Trans>
          </AppLink>
        )}
      </div>
    </form>
  )
}

function Line({ order }: { order: ConsoleOrderLine }) {
  return (
    <li>
      <AppLink to="/admin/orders/$id" params={{ id: String(order.id) }} className={styles.line}>
        <span className={styles.lineHead}>
          <strong>#{order.id}</strong> <ConsoleOrderStatus status={order.status} />
        </span>
        <span>
          <bdi>{order.product_name}</bdi>
          {order.package_name && (
            <>
              {' — '}
              <bdi>{order.package_name}</bdi>
            </>
          )}{' '}
          ×{order.quantity}
        </span>
        <span className={styles.lineMeta}>
          <bdi>{order.customer.username}</bdi>
          <Price amount={order.total_price} currency={order.currency} />
          <DateTime at={order.created_at} date={order.date} time={order.time} />
        </span>
      </AppLink>
    </li>
  )
}
