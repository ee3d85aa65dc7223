import { AppLink } from '../ui/nav'
import { Trans } from '@lingui/react/macro'
import { button } from '../ui/button.css'
import * as styles from './shell.css'

/** A signed-in page whose screen is still being built; its guard is already real. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className={styles.page}>
      <h1>{title}</h1>
      <p>
        <Trans>This page is coming soon.</Trans>
      </p>
      <AppLink to="/" className={button.primary}>
        <Trans>Back to the home page</Trans>
      </AppLink>
    </section>
  )
}
