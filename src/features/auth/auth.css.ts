import { globalStyle, style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const card = style({
  maxInlineSize: '30rem',
  marginInline: 'auto',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.75rem',
  display: 'grid',
  gap: '1rem',
})

export const heading = style({ margin: 0, color: site.primary, fontSize: '1.5rem' })

export const form = style({ display: 'grid', gap: '1rem' })

export const phone = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(7rem, 40%) 1fr',
  gap: '0.5rem',
})

export const country = style({ position: 'relative', display: 'grid' })

/** The closed list's text, drawn over the select whose own text is transparent. */
export const countryShown = style({
  position: 'absolute',
  insetBlock: 0,
  insetInlineStart: '0.8rem',
  insetInlineEnd: '0.6rem',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '0.25rem',
  pointerEvents: 'none',
  color: tokens.text,
})

export const countryText = style({ whiteSpace: 'nowrap', overflow: 'hidden' })

export const countrySelect = style({ selectors: { 'select&': { color: 'transparent' } } })
globalStyle(`${countrySelect} option`, { color: tokens.text })

export const toggle = style({
  display: 'grid',
  gridTemplateColumns: '1fr 1fr',
  gap: '0.25rem',
  padding: '0.25rem',
  background: tokens.page,
  borderRadius: tokens.radius,
})

export const toggleButton = style({
  minBlockSize: '40px',
  border: 0,
  borderRadius: tokens.radius,
  background: 'transparent',
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  color: tokens.text,
  selectors: { '&[aria-pressed="true"]': { background: site.primary, color: site.onPrimary } },
})

export const check = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  minBlockSize: '44px',
})

export const row = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '1rem',
  flexWrap: 'wrap',
})

export const note = style({ margin: 0, color: tokens.muted, fontSize: '0.95rem' })

export const countdown = style({ fontVariantNumeric: 'tabular-nums', fontWeight: 700 })

export const linkButton = style({
  border: 0,
  background: 'none',
  padding: 0,
  color: site.primary,
  font: 'inherit',
  fontWeight: 600,
  textDecoration: 'underline',
  cursor: 'pointer',
  minBlockSize: '44px',
})
