import { style } from '@vanilla-extract/css'
import { tokens } from '../../theme/theme.css'

/** Label and value side by side where they fit, the value under its label on a phone. */
export const details = style({
  display: 'grid',
  gap: '0.6rem',
  margin: 0,
})

export const detail = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
  gap: '0.1rem 1rem',
  paddingBlockEnd: '0.5rem',
  borderBlockEnd: `1px solid ${tokens.border}`,
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
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: '0.75rem',
  padding: '0.5rem 0.75rem',
  background: tokens.page,
  borderRadius: tokens.radius,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  overflowWrap: 'anywhere',
})
