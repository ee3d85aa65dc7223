import { style } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'
import { inputLook } from './field.css'

export const boxes = style({
  display: 'flex',
  gap: '0.75rem',
  justifyContent: 'center',
  direction: 'ltr',
})

export const box = style({
  inlineSize: '3.25rem',
  blockSize: '3.75rem',
  textAlign: 'center',
  fontSize: '1.6rem',
  fontWeight: 700,
  border: `2px solid ${tokens.border}`,
  borderRadius: tokens.radius,
  ...inputLook,
})
