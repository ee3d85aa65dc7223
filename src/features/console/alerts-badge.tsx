import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { settingsQueries } from './settings-queries'
import { visuallyHidden } from '../../ui/visually-hidden.css'
import * as own from './settings.css'

/**
 * How many receipts wait, or transfers matched nothing, on the console bar's link to them: read
 * every few seconds (docs/api.md, Console: Alerts), nothing when there are none.
 */
export function AlertsBadge({ of }: { of: 'waiting_top_ups' | 'unmatched_transfers' }) {
  const { t } = useLingui()
  const alerts = useQuery(settingsQueries.alerts())
  const count = alerts.data?.[of] ?? 0
  if (count === 0) return null
  const label = of === 'waiting_top_ups' ? t`${count} waiting` : t`${count} to match`
  return (
    <span className={own.badge} data-badge={of} title={label}>
      <span aria-hidden="true">{count}</span>
      <span className={visuallyHidden}>{label}</span>
    </span>
  )
}
