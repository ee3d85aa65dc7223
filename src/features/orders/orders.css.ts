import { style } from '@vanilla-extract/css'
import { tokens } from '../../theme/theme.css'

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
