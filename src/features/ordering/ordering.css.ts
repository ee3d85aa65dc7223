import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const form = style({
  display: 'grid',
  gap: '1rem',
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.25rem',
  maxInlineSize: '40rem',
})

export const heading = style({ margin: 0, fontSize: '1.25rem', color: site.primary })

export const row = style({
  display: 'flex',
  gap: '0.5rem',
  alignItems: 'stretch',
  flexWrap: 'wrap',
})

export const grow = style({ flex: '1 1 12rem', minInlineSize: 0 })

export const hint = style({ margin: 0, fontSize: '0.9rem', color: tokens.danger })

export const muted = style({ margin: 0, fontSize: '0.9rem', color: tokens.muted })

export const playerName = style({
  margin: 0,
  padding: '0.5rem 0.75rem',
  borderRadius: tokens.radius,
  background: tokens.page,
  minBlockSize: '2.5rem',
})

export const playerOk = style({ color: tokens.success, fontWeight: 700 })

export const total = style({
  display: 'flex',
  justifyContent: 'space-between',
  fontSize: '1.15rem',
  fontWeight: 700,
  borderBlockStart: `1px solid ${tokens.border}`,
  paddingBlockStart: '0.75rem',
})

export const overlay = style({
  position: 'fixed',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  background: 'rgb(255 255 255 / 0.75)',
  zIndex: 70,
  fontWeight: 700,
  fontSize: '1.2rem',
})
