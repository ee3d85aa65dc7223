import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const tabList = style({ display: 'flex', flexWrap: 'wrap', gap: '0.35rem' })

export const tab = style({
  minBlockSize: '44px',
  paddingInline: '1rem',
  border: `1px solid ${tokens.border}`,
  borderRadius: tokens.radius,
  background: tokens.surface,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  selectors: {
    '&[data-state="active"]': {
      background: site.primary,
      color: site.onPrimary,
      borderColor: site.primary,
    },
  },
})

export const note = style({ margin: 0, fontSize: '0.9rem', color: tokens.muted })
