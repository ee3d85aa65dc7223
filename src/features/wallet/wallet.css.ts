import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

/** The balance cards: side by side where they fit, stacked on a narrow phone. */
export const cards = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 10rem), 1fr))',
  margin: 0,
})

export const card = style({
  display: 'grid',
  gap: '0.25rem',
  padding: '0.9rem 1rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  background: tokens.page,
})

export const cardLabel = style({ color: tokens.muted, fontWeight: 600, margin: 0 })

export const cardAmount = style({
  margin: 0,
  fontSize: '1.35rem',
  lineHeight: 1.3,
  minBlockSize: '1.3em',
  fontWeight: 700,
  color: site.primary,
  fontVariantNumeric: 'tabular-nums',
})

/** An amount not there yet: a bar of the amount's height. */
export const cardPending = style({
  display: 'block',
  inlineSize: '6rem',
  maxInlineSize: '100%',
  blockSize: '1.3em',
  borderRadius: '4px',
  background: tokens.border,
})

/** The top-up methods: cards to choose one from. */
export const methods = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
  border: 0,
  margin: 0,
  padding: 0,
})

export const method = style({
  display: 'grid',
  gap: '0.2rem',
  padding: '0.9rem',
  borderRadius: tokens.radius,
  border: `2px solid ${tokens.border}`,
  background: tokens.surface,
  cursor: 'pointer',
  selectors: {
    '&:has(input:checked)': { borderColor: site.primary, background: tokens.page },
    '&:has(input:focus-visible)': { outline: `3px solid ${site.secondary}`, outlineOffset: '2px' },
  },
})

/** The radio itself stays for keyboards and screen readers; the card shows the choice. */
export const methodRadio = style({
  position: 'absolute',
  opacity: 0,
  inlineSize: '1px',
  blockSize: '1px',
})

export const methodName = style({ fontWeight: 700 })

export const form = style({ display: 'grid', gap: '1rem', maxInlineSize: '36rem' })

export const instructions = style({
  margin: 0,
  padding: '0.75rem 1rem',
  borderRadius: tokens.radius,
  background: tokens.page,
  whiteSpace: 'pre-line',
  overflowWrap: 'anywhere',
})

export const net = style({
  display: 'flex',
  justifyContent: 'space-between',
  gap: '1rem',
  fontWeight: 700,
  borderBlockStart: `1px solid ${tokens.border}`,
  paddingBlockStart: '0.75rem',
  margin: 0,
})

export const preview = style({
  maxInlineSize: '14rem',
  maxBlockSize: '20rem',
  objectFit: 'contain',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
})

export const receipt = style({
  maxInlineSize: 'min(100%, 28rem)',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
})

export const qr = style({
  inlineSize: '220px',
  blockSize: '220px',
  marginInline: 'auto',
  background: tokens.surface,
})

export const copyRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '0.5rem',
  padding: '0.5rem 0.75rem',
  borderRadius: tokens.radius,
  background: tokens.page,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  overflowWrap: 'anywhere',
})

export const exact = style({ fontSize: '1.3rem', fontWeight: 700 })

export const warning = style({ margin: 0, color: tokens.danger, fontWeight: 600 })

/** A secondary line of a dialog whose body spaces its parts already. */
export const note = style({ margin: 0, color: tokens.muted })
