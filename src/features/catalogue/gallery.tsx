import { useRef, useState, type KeyboardEvent } from 'react'
import { useLingui } from '@lingui/react/macro'
import type { ProductDetail } from '../../contract/catalogue'
import { FIRST_PICTURE } from '../../contract/constants'
import { Icon } from '../../ui/icon'
import { DetailImage } from './product-card'
import * as styles from './catalogue.css'

/** The item's main picture first, then its gallery's (each once). */
export function galleryPictures(product: Pick<ProductDetail, 'image' | 'images'>): string[] {
  const pictures = [product.image, ...product.images.map((entry) => entry.image)]
  return [...new Set(pictures.filter((src): src is string => !!src))]
}

/**
 * A product's pictures: one scroll-snapped row, swiped on a phone, with "previous" and "next"
 * buttons and the picture's number said as it changes (a carousel as WAI-ARIA describes it).
 * The first picture is the page's largest element: it loads at once and first. The others wait
 * until the customer reaches for the row (a pointer over it or down on it, the focus in it, a
 * scroll, a press kept from before the storefront started): a browser fetches a row's lazy
 * pictures with the page, since they lie beside the screen, not below it, and a customer who
 * never pages through the row would pay for them. Each picture is square and sized before it
 * arrives. In Arabic the row runs right to left and the buttons point the way they move.
 */
export function Gallery({
  product,
}: {
  product: Pick<ProductDetail, 'name' | 'image' | 'images'>
}) {
  const { t } = useLingui()
  const pictures = galleryPictures(product)
  const name = product.name
  const track = useRef<HTMLUListElement>(null)
  const [shown, setShown] = useState(0)
  const [reached, setReached] = useState(false)
  const reach = () => setReached(true)
  /** The picture a button scrolls to, until the row stops there (or a swipe takes over). */
  const target = useRef<number | null>(null)
  if (pictures.length < 2) return <DetailImage src={pictures[0]} />

  const last = pictures.length - 1
  /** The row's width, to the fraction of a pixel, as its scroll offsets are. */
  const width = (row: HTMLElement) => row.getBoundingClientRect().width
  /** Which picture the row shows: in a right-to-left row, scrollLeft runs below 0. */
  const at = (row: HTMLElement) => Math.abs(row.scrollLeft) / width(row)
  const scroll = (row: HTMLElement, index: number) => {
    const sign = getComputedStyle(row).direction === 'rtl' ? -1 : 1
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches
    row.scrollTo({ left: sign * index * width(row), behavior: smooth ? 'smooth' : 'auto' })
  }
  /** The row is where a button sent it, within a pixel (or nothing sent it). */
  const arrived = (row: HTMLElement) =>
    target.current === null || Math.abs(at(row) - target.current) * width(row) < 1
  const go = (index: number) => {
    const row = track.current
    if (!row?.clientWidth) return
    const to = Math.max(0, Math.min(last, index))
    reach()
    setShown(to)
    target.current = to
    if (arrived(row)) target.current = null
    else scroll(row, to)
  }
  // On the way to a button's picture the row passes others: the count (read out as it changes)
  // and the next press keep to where it goes, not to where it is in between.
  const onScroll = () => {
    reach()
    const row = track.current
    if (!row?.clientWidth || !arrived(row)) return
    target.current = null
    setShown(Math.round(at(row)))
  }
  // A scroll's end short of where a button sent the row is the end of an earlier scroll (a
  // press during it): the row goes on to the picture.
  const onScrollEnd = () => {
    const row = track.current
    if (!row?.clientWidth) return
    if (arrived(row)) onScroll()
    else if (target.current !== null) scroll(row, target.current)
  }
  // Home and End as in a list; the arrows scroll the row themselves.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      go(event.key === 'Home' ? 0 : last)
    } else if (/^(Arrow|Page)/.test(event.key)) target.current = null
  }
  const total = pictures.length
  const numbered = (number: number) => t`${number} of ${total}`
  const alt = (number: number) => t`${name}, picture ${number}`

  return (
    <section
      className={styles.gallery}
      aria-roledescription={t`carousel`}
      aria-label={t`Pictures of ${name}`}
      onPointerOver={reach}
      onPointerDown={reach}
      onFocus={reach}
    >
      <ul
        ref={track}
        className={styles.galleryTrack}
        // A row that scrolls is reached with the keyboard too.
        tabIndex={0}
        aria-label={t`Pictures`}
        onScroll={onScroll}
        onScrollEnd={onScrollEnd}
        // A finger or a wheel takes over from a button's scroll, as the keys above do.
        onPointerDown={() => (target.current = null)}
        onWheel={() => (target.current = null)}
        onKeyDown={onKeyDown}
      >
        {pictures.map((src, index) => (
          <li key={src} className={styles.gallerySlide}>
            <div role="group" aria-roledescription={t`slide`} aria-label={numbered(index + 1)}>
              <img
                className={styles.detailImage}
                src={index && !reached ? undefined : src}
                alt={alt(index + 1)}
                width={400}
                height={400}
                loading={index ? 'lazy' : undefined}
                decoding={index ? 'async' : undefined}
                fetchPriority={index ? undefined : 'high'}
                elementtiming={index ? undefined : FIRST_PICTURE}
              />
            </div>
          </li>
        ))}
      </ul>
      <div className={styles.galleryControls}>
        <button
          type="button"
          className={styles.galleryButton}
          aria-label={t`Previous picture`}
          aria-disabled={shown === 0}
          onClick={() => go(shown - 1)}
        >
          <Icon className={styles.galleryArrow}>
            <path d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z" />
          </Icon>
        </button>
        <p className={styles.galleryCount} aria-live="polite">
          {numbered(shown + 1)}
        </p>
        <button
          type="button"
          className={styles.galleryButton}
          aria-label={t`Next picture`}
          aria-disabled={shown === last}
          onClick={() => go(shown + 1)}
        >
          <Icon className={styles.galleryArrow}>
            <path d="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
          </Icon>
        </button>
      </div>
    </section>
  )
}
