import { useEffect, useState } from 'react'
import { useLingui } from '@lingui/react/macro'
import type { Image } from '../../contract/common'
import { FIRST_PICTURE } from '../../contract/constants'
import { pictureSrcSet, SLIDE_SIZES, SLIDE_WIDTH } from '../../contract/pictures'
import { useLocale } from '../../i18n/use-locale'
import * as styles from './slider.css'

export const SLIDE_MS = 15_000

/**
 * An image slider that moves on every 15 s and can be moved with its dots. The slides after the
 * first are asked for halfway to the first move (or at a dot's press), not with the first screen,
 * whose pictures they would compete with on a slow phone.
 */
export function Slider({ images, label }: { images: Image[]; label: string }) {
  const { t } = useLingui()
  const rtl = useLocale() === 'ar'
  const [index, setIndex] = useState(0)
  const [rest, setRest] = useState(false)
  const count = images.length

  useEffect(() => {
    if (count < 2) return
    const early = setTimeout(() => setRest(true), SLIDE_MS / 2)
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), SLIDE_MS)
    return () => {
      clearTimeout(early)
      clearInterval(timer)
    }
  }, [count])

  const current = count ? index % count : 0
  const shift = `translateX(${(rtl ? 100 : -100) * current}%)`

  return (
    <section className={styles.root} aria-roledescription="carousel" aria-label={label}>
      <div className={styles.frame}>
        {images.map((image, i) => (
          <img
            key={image.id}
            className={styles.slide}
            style={{ transform: shift }}
            src={i === 0 || rest ? image.image : undefined}
            srcSet={i === 0 || rest ? pictureSrcSet(image.image, SLIDE_WIDTH) : undefined}
            sizes={SLIDE_SIZES}
            alt=""
            width={SLIDE_WIDTH}
            height={400}
            loading={i === 0 ? 'eager' : 'lazy'}
            fetchPriority={i === 0 ? 'high' : 'low'}
            decoding="async"
            elementtiming={i === 0 ? FIRST_PICTURE : undefined}
          />
        ))}
      </div>
      {count > 1 && (
        <div className={styles.dots}>
          {images.map((image, i) => (
            <button
              key={image.id}
              type="button"
              className={styles.dot}
              aria-label={t`Show slide ${i + 1} of ${count}`}
              aria-current={i === current}
              onClick={() => {
                setRest(true)
                setIndex(i)
              }}
            />
          ))}
        </div>
      )}
    </section>
  )
}

export function SliderSkeleton() {
  return <div className={styles.frame} aria-hidden="true" />
}
