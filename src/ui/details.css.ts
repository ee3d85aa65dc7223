import { style } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'

/** Label and value side by side where they fit, the value under its label on a phone. */
export const details = style({ display: 'grid', gap: '0.6rem', margin: 0 })

export const detail = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 9rem), 1fr))',
  gap: '0.1rem 1rem',
  paddingBlockEnd: '0.5rem',
  borderBlockEnd: `1px solid ${tokens.border}`,
})

export const term = style({ color: tokens.muted, fontWeight: 600 })

export const value = style({ margin: 0, overflowWrap: 'anywhere' })
