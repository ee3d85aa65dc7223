import { style } from '@vanilla-extract/css'
import { phone, site, tokens } from '../../theme/theme.css'

// On a phone the popup hangs from the whole top bar, not from the bell.
export const bellRoot = style({
  position: 'relative',
  '@media': { [phone]: { position: 'static' } },
})

export const bell = style({
  position: 'relative',
  display: 'grid',
  placeItems: 'center',
  inlineSize: '40px',
  blockSize: '40px',
  border: 0,
  borderRadius: tokens.radius,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
})

export const badge = style({
  position: 'absolute',
  insetBlockStart: '0',
  insetInlineEnd: '-2px',
  minInlineSize: '1.25rem',
  blockSize: '1.25rem',
  paddingInline: '0.25rem',
  borderRadius: '999px',
  background: tokens.danger,
  color: tokens.onColor,
  fontSize: '0.75rem',
  fontWeight: 700,
  display: 'grid',
  placeItems: 'center',
})

/** Under the bell (on a phone, under the top bar), inside the screen. */
export const popup = style({
  position: 'absolute',
  insetInlineEnd: 0,
  insetBlockStart: 'calc(100% + 0.35rem)',
  inlineSize: '20rem',
  '@media': { [phone]: { insetInlineEnd: '0.5rem', inlineSize: 'calc(100vw - 1rem)' } },
  display: 'grid',
  gap: '0.6rem',
  padding: '0.8rem',
  background: tokens.surface,
  color: tokens.text,
  borderRadius: tokens.radius,
  boxShadow: '0 8px 24px rgb(0 0 0 / 0.2)',
  zIndex: 30,
})

export const popupList = style({
  display: 'grid',
  gap: '0.6rem',
  listStyle: 'none',
  margin: 0,
  padding: 0,
})

export const title = style({ margin: 0, fontWeight: 700, overflowWrap: 'anywhere' })

export const description = style({ margin: 0, color: tokens.muted, overflowWrap: 'anywhere' })

export const none = style({ margin: 0, color: tokens.muted })

export const viewAll = style({ fontWeight: 700, color: site.primary })

export const cards = style({
  display: 'grid',
  gap: '0.75rem',
  listStyle: 'none',
  margin: 0,
  padding: 0,
})

/** Title and text across the card; the date and the delete button on the row under them. */
export const card = style({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gap: '0.5rem 0.75rem',
  alignItems: 'center',
  padding: '0.9rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  background: tokens.surface,
})

export const cardBody = style({
  gridColumn: '1 / -1',
  display: 'grid',
  gap: '0.25rem',
  minInlineSize: 0,
})

export const when = style({ margin: 0, color: tokens.muted, fontSize: '0.9rem' })

export const prompt = style({
  display: 'grid',
  gap: '0.5rem',
  padding: '0.9rem',
  borderRadius: tokens.radius,
  background: tokens.page,
})
