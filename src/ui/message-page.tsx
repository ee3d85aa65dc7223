import type { ReactNode } from 'react'
import { AppLink } from './nav'
import { Trans } from '@lingui/react/macro'
import { button } from './button.css'
import * as styles from './surface.css'

export type MessageKind = 'not-found' | 'forbidden' | 'error' | 'offline'

const TEXTS: Record<MessageKind, { title: ReactNode; text: ReactNode }> = {
  'not-found': {
    title: <Trans>Page not found</Trans>,
    text: <Trans>The page you are looking for does not exist or has moved.</Trans>,
  },
  forbidden: {
    title: <Trans>Access denied</Trans>,
    text: <Trans>You do not have permission to open this page.</Trans>,
  },
  error: {
    title: <Trans>Something went wrong</Trans>,
    text: <Trans>Please try again.</Trans>,
  },
  offline: {
    title: <Trans>You are offline</Trans>,
    text: (
      <Trans>This page is not saved on this device yet. Connect to the internet to see it.</Trans>
    ),
  },
}

/** A whole page that only says something: not found, forbidden, an error, offline. */
export function MessagePage({
  kind,
  detail,
  action,
}: {
  kind: MessageKind
  /** Shown under the standard text (an error's message). */
  detail?: ReactNode
  /** Replaces the link home (a retry button). */
  action?: ReactNode
}) {
  const { title, text } = TEXTS[kind]
  return (
    <section className={styles.surface} role={kind === 'error' ? 'alert' : undefined}>
      <h1 className={styles.heading}>{title}</h1>
      <p className={styles.muted}>{text}</p>
      {detail && <p>{detail}</p>}
      <div>
        {action ?? (
          <AppLink to="/" className={button.primary}>
            <Trans>Back to the home page</Trans>
          </AppLink>
        )}
      </div>
    </section>
  )
}
