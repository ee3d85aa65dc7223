import { style } from '@vanilla-extract/css'
import { tokens } from '../../theme/theme.css'

/* The console's catalogue and promo screens: one column on a phone, nothing wider. */

export const products = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.5rem',
})

export const product = style({ display: 'grid', gap: '0.5rem', minInlineSize: 0 })

export const productButton = style({
  inlineSize: '100%',
  justifyContent: 'space-between',
  whiteSpace: 'normal',
  textAlign: 'start',
  gap: '0.75rem',
})

export const count = style({ color: tokens.muted, flexShrink: 0 })

export const items = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.75rem',
})

export const item = style({
  display: 'grid',
  gap: '0.6rem',
  padding: '0.9rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  minInlineSize: 0,
})

export const itemHead = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  alignItems: 'baseline',
  gap: '0.5rem',
})

export const itemName = style({ margin: 0, fontSize: '1.05rem', overflowWrap: 'anywhere' })

export const on = style({ color: tokens.success, fontWeight: 600 })
export const off = style({ color: tokens.danger, fontWeight: 600 })

export const priceForm = style({ display: 'grid', gap: '0.6rem' })

/** The three price fields: side by side when they fit, one under another on a phone. */
export const priceFields = style({
  display: 'grid',
  gap: '0.6rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
})

export const notice = style({ margin: 0, selectors: { '&:empty': { display: 'none' } } })

export const importForm = style({ display: 'grid', gap: '0.6rem' })

export const result = style({ display: 'grid', gap: '0.4rem', overflowWrap: 'anywhere' })

export const lines = style({
  margin: 0,
  paddingInlineStart: '1.2rem',
  display: 'grid',
  gap: '0.25rem',
})

export const promoForm = style({
  display: 'grid',
  gap: '0.6rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 10rem), 1fr))',
  alignItems: 'end',
})

export const promo = style([item, {}])

export const promoFacts = style({ margin: 0, color: tokens.muted, overflowWrap: 'anywhere' })

/** The slider's pictures: each as wide as the screen allows, its buttons below it. */
export const slides = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 18rem), 1fr))',
})

export const slide = style({
  display: 'grid',
  gap: '0.5rem',
  padding: '0.6rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  minInlineSize: 0,
})

export const slideImage = style({
  inlineSize: '100%',
  aspectRatio: '3 / 1',
  objectFit: 'cover',
  borderRadius: tokens.radius,
  background: tokens.surface,
})

export const slideActions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' })
