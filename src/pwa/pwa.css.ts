import { style } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'

export const banner = style({
  position: 'fixed',
  insetBlockEnd: '1rem',
  insetInlineStart: '1rem',
  insetInlineEnd: '5.5rem',
  maxInlineSize: '34rem',
  background: tokens.surface,
  color: tokens.text,
  borderRadius: tokens.radius,
  boxShadow: '0 6px 24px rgb(0 0 0 / 0.2)',
  padding: '1rem',
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.75rem',
  zIndex: 40,
})

export const text = style({ margin: 0, flex: '1 1 14rem' })
