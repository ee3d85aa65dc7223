import { keyframes, style } from '@vanilla-extract/css'
import { tokens } from '../../theme/theme.css'

export const form = style({ display: 'grid', gap: '1rem', minInlineSize: 0 })

/** The token is long and has no spaces: it wraps anywhere rather than widen the dialog. */
export const token = style({
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.9rem',
  resize: 'none',
  overflowWrap: 'anywhere',
  wordBreak: 'break-all',
})

export const buttons = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' })

const turn = keyframes({ from: { transform: 'rotate(0deg)' }, to: { transform: 'rotate(360deg)' } })

/** One turn, once, when a new token is made. */
export const spinning = style({
  animation: `${turn} 1s ease-in-out`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
})

export const whitelist = style({
  minBlockSize: '6.5rem',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.9rem',
  resize: 'vertical',
})

export const hint = style({ color: tokens.muted, fontSize: '0.875rem', margin: 0 })

export const off = style({ color: tokens.danger, fontSize: '0.875rem', margin: 0, fontWeight: 600 })

export const endpoint = style({
  margin: 0,
  fontSize: '0.875rem',
  color: tokens.muted,
  overflowWrap: 'anywhere',
})
