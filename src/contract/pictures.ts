/**
 * The narrower copies of a picture the store serves itself (a shipped one under `/media/`, a
 * slide the operator uploaded under `/media/slider/`): `?w=480` and `?w=800` give it that wide
 * at most, in its own format (docs/api.md, Images). A slide is drawn 1,200 px wide (an upload
 * is kept up to 2,000), where a phone shows it about 370 px wide, 740 to 1,110 of its pixels:
 * the phone picks the copy its screen needs (`srcset`) instead of fetching and decoding it all.
 */
export const PICTURE_WIDTHS = [480, 800] as const

/**
 * The page's icon's width, as the store serves its own icon: a PNG, even of a drawing (an SVG
 * icon costs a phone's page a document of its own to draw, 2 to 3 ms of the start's main
 * thread), that wide: 32 px at a density of 2.
 */
export const ICON_WIDTH = 64

/** The widths `?w=` gives a picture of the store's at (docs/api.md, Images). */
export const MADE_WIDTHS: readonly number[] = [ICON_WIDTH, ...PICTURE_WIDTHS]

/** A picture the store serves itself, with its kind (`svg` for a drawing). */
const STORE_PICTURE = /^\/media\/[^?#]+\.(svg|webp|jpe?g|png)$/

/** The page's icon: the store's own at `ICON_WIDTH` pixels; another site's as it is. */
export const iconHref = (url: string): string =>
  STORE_PICTURE.test(url) ? `${url}?w=${ICON_WIDTH}` : url

/** A slide's width as drawn, and so as its `srcset` names it (an upload may be wider). */
export const SLIDE_WIDTH = 1200

/** The slider's width: the page's, less its margins (src/app/shell.css.ts), at most 1,200 px. */
export const SLIDE_SIZES =
  '(max-width: 640px) calc(100vw - 1.5rem), min(1200px, calc(100vw - 2rem))'

/**
 * The `srcset` of a picture `width` pixels wide: its narrower copies and itself, when the store
 * serves it and it is made of pixels; undefined for a drawing (SVG) or another site's picture.
 */
export function pictureSrcSet(url: string, width: number): string | undefined {
  const kind = STORE_PICTURE.exec(url)?.[1]
  if (!kind || kind === 'svg') return undefined
  return [
    ...PICTURE_WIDTHS.filter((narrower) => narrower < width).map((w) => `${url}?w=${w} ${w}w`),
    `${url} ${width}w`,
  ].join(', ')
}
