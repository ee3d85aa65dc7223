import { keyframes, style } from '@vanilla-extract/css'
import { phone, site, tokens } from '../../theme/theme.css'

export const section = style({ display: 'grid', gap: '1rem', marginBlockStart: '1.5rem' })

export const heading = style({ margin: 0, fontSize: '1.4rem', color: site.primary })

export const grid = style({
  display: 'grid',
  gap: '1rem',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(45%, 10rem), 1fr))',
  listStyle: 'none',
  margin: 0,
  padding: 0,
})

export const card = style({
  display: 'grid',
  gridTemplateRows: 'auto 1fr',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  overflow: 'hidden',
  textDecoration: 'none',
  color: tokens.text,
  blockSize: '100%',
  transition: 'transform 150ms ease, box-shadow 150ms ease',
  selectors: {
    'a&:hover': { transform: 'translateY(-2px)', boxShadow: '0 6px 16px rgb(0 0 0 / 0.15)' },
  },
})

export const unavailable = style({ filter: 'grayscale(1)', opacity: 0.6, cursor: 'not-allowed' })

/** Square and sized before the image arrives: no layout shift. */
export const media = style({
  aspectRatio: '1 / 1',
  inlineSize: '100%',
  blockSize: 'auto',
  objectFit: 'cover',
  background: tokens.border,
})

export const body = style({
  padding: '0.75rem',
  display: 'grid',
  gap: '0.25rem',
  alignContent: 'start',
})

export const name = style({
  margin: 0,
  fontSize: '1rem',
  fontWeight: 600,
  overflowWrap: 'anywhere',
})

export const label = style({
  justifySelf: 'start',
  fontSize: '0.8rem',
  fontWeight: 700,
  color: tokens.onColor,
  background: tokens.muted,
  borderRadius: '999px',
  paddingInline: '0.6rem',
  paddingBlock: '0.1rem',
})

const pulse = keyframes({ '0%': { opacity: 1 }, '50%': { opacity: 0.45 }, '100%': { opacity: 1 } })

export const skeleton = style({
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  overflow: 'hidden',
  animation: `${pulse} 1.4s ease-in-out infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
})

export const skeletonMedia = style({ aspectRatio: '1 / 1', background: tokens.border })

export const skeletonLine = style({
  blockSize: '1rem',
  margin: '0.75rem',
  borderRadius: '4px',
  background: tokens.border,
})

export const empty = style({
  margin: 0,
  padding: '2rem 1rem',
  textAlign: 'center',
  color: tokens.muted,
  background: tokens.surface,
  borderRadius: tokens.radius,
})

export const sentinel = style({ blockSize: '1px' })

/** The item's picture beside its name and notes; a small picture on a phone, so the form shows. */
export const detail = style({
  display: 'grid',
  gap: '1.25rem',
  gridTemplateColumns: 'minmax(0, 20rem) minmax(0, 1fr)',
  alignItems: 'start',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.25rem',
  '@media': {
    [phone]: { gridTemplateColumns: '6.5rem minmax(0, 1fr)', gap: '0.9rem', padding: '0.9rem' },
  },
})

export const detailImage = style({
  aspectRatio: '1 / 1',
  inlineSize: '100%',
  blockSize: 'auto',
  borderRadius: tokens.radius,
  background: tokens.border,
})

export const facts = style({ display: 'grid', gap: '0.5rem', margin: 0 })

export const price = style({ fontSize: '1.3rem', fontWeight: 700, color: site.primary })

/** Home's row of groups: one line of chips, its height set before they arrive. */
export const groupRow = style({
  marginBlockStart: '1.25rem',
  blockSize: '3rem',
  overflowX: 'auto',
  overflowY: 'hidden',
  scrollSnapType: 'x proximity',
  scrollbarWidth: 'none',
})

export const groupList = style({
  display: 'flex',
  gap: '0.6rem',
  listStyle: 'none',
  margin: 0,
  padding: '0.15rem',
  blockSize: '100%',
  boxSizing: 'border-box',
  alignItems: 'center',
})

export const groupItem = style({ flex: 'none', scrollSnapAlign: 'start' })

export const groupChip = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  whiteSpace: 'nowrap',
  minBlockSize: '2.75rem',
  boxSizing: 'border-box',
  paddingInline: '0.4rem 1rem',
  borderRadius: '999px',
  background: tokens.surface,
  boxShadow: tokens.shadow,
  color: tokens.text,
  fontWeight: 600,
  textDecoration: 'none',
  selectors: { '&:hover': { color: site.primary } },
})

export const groupImage = style({
  inlineSize: '2rem',
  blockSize: '2rem',
  borderRadius: '50%',
  objectFit: 'cover',
  background: tokens.border,
})

/** The link from an item's page to its group. */
export const groupLink = style({ justifySelf: 'start', color: site.primary, fontWeight: 600 })

/** A product's pictures in the detail's picture column. */
export const gallery = style({
  display: 'grid',
  // Never wider than its column: the controls' row must not widen the pictures over the text.
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '0.4rem',
  minInlineSize: 0,
})

export const galleryTrack = style({
  display: 'flex',
  overflowX: 'auto',
  overflowY: 'hidden',
  scrollSnapType: 'x mandatory',
  overscrollBehaviorX: 'contain',
  scrollbarWidth: 'none',
  listStyle: 'none',
  margin: 0,
  padding: 0,
  borderRadius: tokens.radius,
})

export const gallerySlide = style({
  flex: '0 0 100%',
  scrollSnapAlign: 'start',
  scrollSnapStop: 'always',
})

export const galleryControls = style({
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr) auto',
  alignItems: 'center',
  gap: '0.25rem',
})

export const galleryButton = style({
  display: 'inline-grid',
  placeItems: 'center',
  inlineSize: '2.25rem',
  blockSize: '2.25rem',
  flex: 'none',
  padding: 0,
  border: `1px solid ${tokens.border}`,
  borderRadius: '50%',
  background: tokens.surface,
  color: tokens.text,
  cursor: 'pointer',
  selectors: {
    '&[aria-disabled="true"]': { opacity: 0.45, cursor: 'default' },
    // Next stays at the end of the row when the count moves below.
    '&:last-child': { gridColumn: 3 },
  },
})

/** Arrows point the way the row moves: mirrored right to left. */
export const galleryArrow = style({ selectors: { '[dir="rtl"] &': { transform: 'scaleX(-1)' } } })

export const galleryCount = style({
  margin: 0,
  textAlign: 'center',
  // A phone's picture column is narrower than both buttons and the count: it goes below them.
  '@media': { [phone]: { gridRow: 2, gridColumn: '1 / -1' } },
  fontSize: '0.8rem',
  whiteSpace: 'nowrap',
  color: tokens.muted,
})
