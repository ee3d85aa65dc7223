import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const stack = style({ display: 'grid', gap: '1.5rem' })

export const card = style({
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.5rem',
})

export const heading = style({ marginBlock: '0 1rem', color: site.primary })

export const prose = style({ maxInlineSize: '70ch', overflowWrap: 'anywhere' })

export const columns = style({
  display: 'grid',
  gap: '1.5rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 20rem), 1fr))',
  alignItems: 'start',
})

export const form = style({ display: 'grid', gap: '1rem' })

export const infoList = style({ display: 'grid', gap: '0.75rem', margin: 0 })

export const infoTerm = style({ fontWeight: 600, color: tokens.muted })

export const infoValue = style({ margin: 0, overflowWrap: 'anywhere' })
