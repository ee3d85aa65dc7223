import { style, styleVariants } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const page = style({
  display: 'grid',
  gap: '1rem',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.25rem',
})

export const heading = style({ margin: 0, color: site.primary })

export const filters = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 11rem), 1fr))',
  alignItems: 'end',
})

export const tableWrap = style({ overflowX: 'auto' })

export const table = style({
  inlineSize: '100%',
  borderCollapse: 'collapse',
  minInlineSize: '36rem',
})

export const cell = style({
  textAlign: 'start',
  padding: '0.65rem 0.5rem',
  borderBlockEnd: `1px solid ${tokens.border}`,
  verticalAlign: 'middle',
})

export const status = styleVariants({
  WAITING: { color: '#1d4ed8', fontWeight: 700 },
  COMPLETED: { color: '#15803d', fontWeight: 700 },
  CANCELED: { color: '#b91c1c', fontWeight: 700 },
})

export const details = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(8rem, auto) 1fr',
  gap: '0.5rem 1rem',
  margin: 0,
})

export const term = style({ color: tokens.muted, fontWeight: 600 })

export const value = style({ margin: 0, overflowWrap: 'anywhere' })

export const codes = style({
  display: 'grid',
  gap: '0.5rem',
  listStyle: 'none',
  margin: 0,
  padding: 0,
})

export const code = style({
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '0.75rem',
  padding: '0.5rem 0.75rem',
  background: tokens.page,
  borderRadius: tokens.radius,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
})

export const pagination = style({
  display: 'flex',
  gap: '0.4rem',
  flexWrap: 'wrap',
  justifyContent: 'center',
})
