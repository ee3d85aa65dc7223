import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { DATE_RANGE_MARK } from '../../contract/orders'
import { formatMoney, toMicros } from '../../domain/money'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import { ErrorNote } from '../../ui/error-note'
import { TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { dateRange, type DatePreset } from './dates'
import { orderQueries } from './queries'
import { StatusBadge } from './status'
import * as styles from './orders.css'

export interface OrdersSearch {
  status: '' | 'COMPLETED' | 'CANCELED' | 'WAITING'
  date: DatePreset
  start: string
  end: string
  page: number
}

export function OrdersPage({ search }: { search: OrdersSearch }) {
  const { t } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const range = dateRange(search.date, { start: search.start, end: search.end })
  const { data, error, refetch, isPending } = useQuery({
    ...orderQueries.list({ status: search.status || undefined, page: search.page, ...range }),
    placeholderData: keepPreviousData,
  })
  const change = (next: Partial<OrdersSearch>) =>
    void navigate({ to: '/Orders', search: { ...search, page: 1, ...next } })
  const pages = data ? Math.ceil(data.total / data.per_page) : 0

  return (
    <section className={styles.page} aria-labelledby="orders-heading">
      <h1 id="orders-heading" className={styles.heading}>
        <Trans>Orders</Trans>
      </h1>
      <div className={styles.filters}>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor="orders-status">
            <Trans>Status</Trans>
          </label>
          <select
            id="orders-status"
            className={fieldStyles.input}
            value={search.status}
            onChange={(event) => change({ status: event.target.value as OrdersSearch['status'] })}
          >
            <option value="">{t`All`}</option>
            <option value="COMPLETED">{t`Completed`}</option>
            <option value="CANCELED">{t`Canceled`}</option>
            <option value="WAITING">{t`Waiting`}</option>
          </select>
        </div>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor="orders-date">
            <Trans>Date</Trans>
          </label>
          <select
            id="orders-date"
            className={fieldStyles.input}
            value={search.date}
            onChange={(event) => change({ date: event.target.value as DatePreset })}
          >
            <option value="">{t`All`}</option>
            <option value="today">{t`Today`}</option>
            <option value="week">{t`Last week`}</option>
            <option value="month">{t`Last month`}</option>
            <option value={DATE_RANGE_MARK}>{t`Specific date`}</option>
          </select>
        </div>
        {search.date === DATE_RANGE_MARK && (
          <>
            <TextField
              id="orders-start"
              type="date"
              label={<Trans>Start date</Trans>}
              value={search.start}
              onValue={(start) => change({ start })}
            />
            <TextField
              id="orders-end"
              type="date"
              label={<Trans>End date</Trans>}
              value={search.end}
              onValue={(end) => change({ end })}
            />
          </>
        )}
      </div>

      {error ? (
        <ErrorNote error={error} onRetry={() => void refetch()} />
      ) : isPending || !data ? (
        <p aria-busy="true">
          <Trans>Loading…</Trans>
        </p>
      ) : data.data.length === 0 ? (
        <p>
          <Trans>There are no items to show</Trans>
        </p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th className={styles.cell}>#</th>
                <th className={styles.cell}>
                  <Trans>Product</Trans>
                </th>
                <th className={styles.cell}>
                  <Trans>Quantity</Trans>
                </th>
                <th className={styles.cell}>
                  <Trans>Total</Trans>
                </th>
                <th className={styles.cell}>
                  <Trans>Status</Trans>
                </th>
                <th className={styles.cell}>
                  <Trans>Date</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((order) => (
                <tr key={order.id}>
                  <td className={styles.cell}>
                    <Link to="/Orders/$id" params={{ id: String(order.id) }}>
                      {order.id}
                    </Link>
                  </td>
                  <td className={styles.cell}>
                    <Link to="/Orders/$id" params={{ id: String(order.id) }}>
                      {order.package_name
                        ? `${order.product_name} — ${order.package_name}`
                        : order.product_name}
                    </Link>
                  </td>
                  <td className={styles.cell}>{order.quantity}</td>
                  <td className={styles.cell}>
                    <bdi>{formatMoney(toMicros(order.total_price), order.currency, locale)}</bdi>
                  </td>
                  <td className={styles.cell}>
                    <StatusBadge status={order.status} />
                  </td>
                  <td className={styles.cell}>
                    <bdi dir="ltr">
                      {order.date} {order.time}
                    </bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label={t`Pages`} className={styles.pagination}>
          {Array.from({ length: pages }, (_, index) => (
            <button
              key={index}
              type="button"
              className={index + 1 === search.page ? button.primary : button.secondary}
              aria-current={index + 1 === search.page ? 'page' : undefined}
              aria-label={t`Page ${index + 1}`}
              onClick={() =>
                void navigate({ to: '/Orders', search: { ...search, page: index + 1 } })
              }
            >
              {index + 1}
            </button>
          ))}
        </nav>
      )}
    </section>
  )
}
