import { style } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

/** A page's or a section's card: white, rounded, lightly raised. */
export const surface = style({
  display: 'grid',
  gap: '1rem',
  alignContent: 'start',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: 'clamp(1rem, 3vw, 1.5rem)',
  minInlineSize: 0,
})

/** A page's title, in the site's colour. */
export const heading = style({
  margin: 0,
  color: site.primary,
  fontSize: 'clamp(1.3rem, 4vw, 1.6rem)',
  lineHeight: 1.25,
  overflowWrap: 'anywhere',
})

/** A section's title inside a page. */
export const subheading = style({ margin: 0, fontSize: '1.15rem' })

/** Secondary text: notes, hints. */
export const muted = style({ color: tokens.muted, margin: 0 })

/** Filters above a list: as many columns as fit, one on a phone. */
export const filters = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 11rem), 1fr))',
  alignItems: 'end',
})

/** A line of text not there yet. */
export const textLine = style({
  blockSize: '1rem',
  borderRadius: '4px',
  background: tokens.border,
  marginBlock: '0.6rem',
})

/** Offline: the saved copy's age, above what it shows (the account's pages, the catalogue's). */
export const savedNote = style({
  margin: 0,
  padding: '0.6rem 0.9rem',
  borderRadius: tokens.radius,
  background: tokens.notice,
  color: tokens.onNotice,
  fontWeight: 600,
})
