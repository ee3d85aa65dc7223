import type { ReactNode } from 'react'
import * as styles from './status-badge.css'

export type Tone = keyof typeof styles.tone

/** A state in words on its colour: waiting blue, done green, refused red. */
export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={styles.tone[tone]}>{children}</span>
}
