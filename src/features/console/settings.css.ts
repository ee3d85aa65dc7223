import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

/* The Settings and USDT screens and the bar's badge (src/features/console/). */

export const tabList = style({ display: 'flex', flexWrap: 'wrap', gap: '0.35rem' })

export const tab = style({
  minBlockSize: '44px',
  paddingInline: '0.9rem',
  border: `1px solid ${tokens.border}`,
  borderRadius: tokens.radius,
  background: tokens.surface,
  color: 'inherit',
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  selectors: {
    '&[data-state="active"]': {
      background: site.primary,
      color: site.onPrimary,
      borderColor: site.primary,
    },
  },
})

export const tabPanel = style({ paddingBlockStart: '1rem', minInlineSize: 0 })

export const cards = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.75rem',
  minInlineSize: 0,
})

export const card = style({
  display: 'grid',
  gap: '0.75rem',
  padding: '0.9rem',
  border: `1px solid ${tokens.border}`,
  borderRadius: tokens.radius,
  minInlineSize: 0,
})

/** A transaction hash: 64 characters that break anywhere rather than widen the page. */
export const hash = style({ overflowWrap: 'anywhere', wordBreak: 'break-all', fontWeight: 400 })

export const switchRow = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.6rem',
  minBlockSize: '44px',
  fontWeight: 600,
  cursor: 'pointer',
})

export const switchBox = style({ inlineSize: '1.4rem', blockSize: '1.4rem', margin: 0 })

export const longText = style({ minBlockSize: '5rem', resize: 'vertical' })

/** The count of receipts and transfers waiting, on the bar's link to them. */
export const badge = style({
  display: 'inline-grid',
  placeItems: 'center',
  minInlineSize: '1.5rem',
  blockSize: '1.5rem',
  paddingInline: '0.35rem',
  marginInlineStart: '0.4rem',
  borderRadius: '999px',
  background: tokens.danger,
  color: tokens.onColor,
  fontSize: '0.85rem',
  fontWeight: 700,
})
