import { keyframes, style } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'

const appear = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } })

export const overlay = style({
  position: 'fixed',
  inset: 0,
  background: 'rgb(0 0 0 / 0.45)',
  zIndex: 60,
  animation: `${appear} 150ms ease-out`,
})

export const content = style({
  position: 'fixed',
  insetBlockStart: '50%',
  insetInline: 0,
  marginInline: 'auto',
  transform: 'translateY(-50%)',
  inlineSize: 'min(92vw, 28rem)',
  maxBlockSize: '90vh',
  overflowY: 'auto',
  background: tokens.surface,
  color: tokens.text,
  borderRadius: tokens.radius,
  boxShadow: '0 12px 40px rgb(0 0 0 / 0.3)',
  padding: '1.5rem',
  zIndex: 61,
  display: 'grid',
  gap: '1rem',
  animation: `${appear} 150ms ease-out`,
})

export const title = style({ margin: 0, fontSize: '1.2rem' })

export const actions = style({
  display: 'flex',
  gap: '0.75rem',
  justifyContent: 'flex-end',
  flexWrap: 'wrap',
})
