import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const root = style({ position: 'relative', borderRadius: tokens.radius, overflow: 'hidden' })

/** The box is sized before any image arrives, so nothing below it moves. */
export const frame = style({
  aspectRatio: '3 / 1',
  background: tokens.border,
  display: 'flex',
  overflow: 'hidden',
})

export const slide = style({
  flex: '0 0 100%',
  inlineSize: '100%',
  blockSize: '100%',
  objectFit: 'cover',
  transition: 'transform 600ms ease',
  '@media': { '(prefers-reduced-motion: reduce)': { transition: 'none' } },
})

export const dots = style({
  position: 'absolute',
  insetBlockEnd: '0.25rem',
  insetInline: 0,
  display: 'flex',
  justifyContent: 'center',
  gap: '0.1rem',
})

export const dot = style({
  inlineSize: '28px',
  blockSize: '28px',
  border: 0,
  padding: 0,
  background: 'transparent',
  cursor: 'pointer',
  display: 'grid',
  placeItems: 'center',
  '::after': {
    content: '""',
    inlineSize: '12px',
    blockSize: '12px',
    borderRadius: '50%',
    background: 'rgb(255 255 255 / 0.7)',
    boxShadow: '0 0 0 1px rgb(0 0 0 / 0.4)',
  },
  selectors: { '&[aria-current="true"]::after': { background: site.primary } },
})
