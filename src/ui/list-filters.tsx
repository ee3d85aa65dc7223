import { Trans, useLingui } from '@lingui/react/macro'
import { DATE_RANGE_MARK } from '../contract/constants'
import type { DatePreset } from './date-filter'
import type { ListSortChoice } from './list-sort'
import { SelectField, TextField } from './field'
import * as styles from './surface.css'

export interface DateFilterValue {
  date: DatePreset
  start: string
  end: string
}

/** A dated list's filters as its page keeps them in the address (the orders, the wallet). */
export interface DatedListSearch<S extends string> extends DateFilterValue {
  status: '' | S
  sort: ListSortChoice
  page: number
}

/**
 * The filters above a list: its status, how it is sorted (newest, oldest, highest or lowest
 * amount first) and the date: all, today, last week, last month, or a specific range, which
 * reveals a start and an end date.
 */
export function ListFilters<S extends string>({
  id,
  statuses,
  value,
  onChange,
}: {
  id: string
  statuses: { value: '' | S; label: string }[]
  value: DatedListSearch<S>
  onChange: (next: Partial<DatedListSearch<S>>) => void
}) {
  const { t } = useLingui()
  return (
    <div className={styles.filters}>
      <SelectField
        id={`${id}-status`}
        label={<Trans>Status</Trans>}
        value={value.status}
        onChange={(status) => onChange({ status })}
        options={statuses}
      />
      <SortFilter
        id={`${id}-sort`}
        value={value.sort}
        onChange={(sort) => onChange({ sort })}
        amounts
      />
      <SelectField
        id={`${id}-date`}
        label={<Trans>Date</Trans>}
        value={value.date}
        onChange={(date) => onChange({ date })}
        options={[
          { value: '', label: t`All` },
          { value: 'today', label: t`Today` },
          { value: 'week', label: t`Last week` },
          { value: 'month', label: t`Last month` },
          { value: DATE_RANGE_MARK, label: t`Specific date` },
        ]}
      />
      {value.date === DATE_RANGE_MARK && (
        <>
          <TextField
            id={`${id}-start`}
            type="date"
            label={<Trans>Start date</Trans>}
            value={value.start}
            onValue={(start) => onChange({ start })}
          />
          <TextField
            id={`${id}-end`}
            type="date"
            label={<Trans>End date</Trans>}
            value={value.end}
            onValue={(end) => onChange({ end })}
          />
        </>
      )}
    </div>
  )
}

/**
 * How a list is sorted: newest or oldest first, and where the list has `amounts`, the highest
 * or the lowest amount first.
 */
export function SortFilter({
  id,
  value,
  onChange,
  amounts = false,
}: {
  id: string
  value: ListSortChoice
  onChange: (sort: ListSortChoice) => void
  amounts?: boolean
}) {
  const { t } = useLingui()
  const options: { value: ListSortChoice; label: string }[] = [
    { value: '', label: t`Newest first` },
    { value: 'oldest', label: t`Oldest first` },
  ]
  if (amounts)
    options.push(
      { value: 'highest', label: t`Highest amount first` },
      { value: 'lowest', label: t`Lowest amount first` },
    )
  return (
    <SelectField
      id={id}
      label={<Trans>Sort</Trans>}
      value={value}
      onChange={onChange}
      options={options}
    />
  )
}
