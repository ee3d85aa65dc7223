import { style } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

export const list = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.4rem',
  justifyContent: 'center',
  listStyle: 'none',
  margin: 0,
  padding: 0,
})

export const link = style({
  display: 'grid',
  placeItems: 'center',
  minInlineSize: '44px',
  minBlockSize: '44px',
  borderRadius: tokens.radius,
  background: tokens.surface,
  border: `1px solid ${tokens.border}`,
  textDecoration: 'none',
  fontWeight: 600,
  selectors: {
    '&[aria-current="page"]': {
      background: site.primary,
      color: site.onPrimary,
      borderColor: site.primary,
    },
  },
})
