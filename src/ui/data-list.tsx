import type { Key, ReactNode } from 'react'
import * as styles from './data-list.css'

export interface Column<T> {
  /** The header's words; a phone shows them beside each value. */
  header: string
  cell: (row: T) => ReactNode
  /** The cell that names the row: the title of its card on a phone. */
  primary?: boolean
}

/**
 * A list of records: a table on a wide screen, a card per row on a phone (nothing scrolls
 * sideways). The roles are written out, so the table stays a table to screen readers however
 * the cards are drawn.
 */
export function DataList<T>({
  rows,
  columns,
  rowKey,
  label,
}: {
  rows: T[]
  columns: Column<T>[]
  rowKey: (row: T) => Key
  label: string
}) {
  return (
    <table role="table" aria-label={label} className={styles.table}>
      <thead role="rowgroup" className={styles.head}>
        <tr role="row">
          {columns.map((column) => (
            <th role="columnheader" key={column.header} className={styles.cell}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className={styles.body}>
        {rows.map((row) => (
          <tr role="row" key={rowKey(row)} className={styles.row}>
            {columns.map((column) => (
              <td
                role="cell"
                key={column.header}
                data-label={column.header}
                className={column.primary ? `${styles.cell} ${styles.primary}` : styles.cell}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
