import type { ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'
import * as styles from './surface.css'

/** What a list says when it has nothing; 'There are no items to show' unless told otherwise. */
export function EmptyState({ children }: { children?: ReactNode }) {
  return (
    <p className={styles.muted} role="status">
      {children ?? <Trans>There are no items to show</Trans>}
    </p>
  )
}
