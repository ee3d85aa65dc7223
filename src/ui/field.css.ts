import { style } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

export const field = style({ display: 'grid', gap: '0.35rem' })

export const label = style({ fontWeight: 600, fontSize: '0.95rem' })

/** A text box's colours and its focused and invalid looks, shared by every kind of input. */
export const inputLook = {
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
}

export const input = style({
  inlineSize: '100%',
  minBlockSize: '44px',
  paddingInline: '0.8rem',
  paddingBlock: '0.55rem',
  border: `1px solid ${tokens.border}`,
  borderRadius: tokens.radius,
  font: 'inherit',
  ...inputLook,
})

export const error = style({ color: tokens.danger, fontSize: '0.9rem', margin: 0 })

export const success = style({ color: tokens.success, fontWeight: 600, margin: 0 })
