import { style } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

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
  background: tokens.surface,
  color: tokens.text,
  selectors: {
    '&:focus': {
      borderColor: site.primary,
      outline: 'none',
      boxShadow: `0 0 0 3px ${site.secondary}`,
    },
    '&[aria-invalid="true"]': { borderColor: tokens.danger },
  },
})
