import type { ReactNode } from 'react'
import * as styles from './details.css'

/** Label and value pairs of one record; empty values are left out. */
export function Details({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className={styles.details}>
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <div key={label} className={styles.detail}>
            <dt className={styles.term}>{label}</dt>
            <dd className={styles.value}>{value}</dd>
          </div>
        ))}
    </dl>
  )
}
