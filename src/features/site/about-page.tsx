import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import { lazyPiece } from '../../ui/lazy-piece'
import { LoadProblem, TextLines } from '../../ui/load-problem'
import { siteQueries } from './queries'
import { Slider, SliderSkeleton } from './slider'
import * as styles from './pages.css'

/** DOMPurify (about 11 KiB gzip) comes only with a text that carries HTML. */
const SanitizedHtml = lazyPiece(
  () => import('./sanitized-html').then(({ SanitizedHtml }) => SanitizedHtml),
  (state) =>
    state === 'failed' ? (
      <p role="status">
        <Trans>This text needs an internet connection to load.</Trans>
      </p>
    ) : (
      <TextLines />
    ),
)

/** Server text may carry HTML; only sanitised markup reaches the page. */
function AboutText({ text }: { text: string }) {
  if (!/<[a-z][\s\S]*>/i.test(text)) return <p className={styles.prose}>{text}</p>
  return <SanitizedHtml text={text} className={styles.prose} />
}

export function AboutPage() {
  const { t } = useLingui()
  const { data, error, refetch } = useQuery(siteQueries.about(useLocale()))
  return (
    <div className={styles.stack}>
      <section className={styles.card}>
        <h1 className={styles.heading}>
          <Trans>About us</Trans>
        </h1>
        {data ? (
          <AboutText text={data.about_us_text} />
        ) : error ? (
          <LoadProblem error={error} onRetry={() => void refetch()} />
        ) : (
          <TextLines />
        )}
      </section>
      {data ? (
        data.about_us_images.length > 0 && (
          <Slider images={data.about_us_images} label={t`About us pictures`} />
        )
      ) : (
        <SliderSkeleton />
      )}
    </div>
  )
}
