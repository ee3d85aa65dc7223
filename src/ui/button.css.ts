import { style, styleVariants } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '0.4rem',
  minBlockSize: '44px',
  paddingInline: '1.1rem',
  borderRadius: tokens.radius,
  border: '1px solid transparent',
  font: 'inherit',
  fontWeight: 600,
  textDecoration: 'none',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  selectors: { '&:disabled': { opacity: 0.6, cursor: 'not-allowed' } },
})

export const button = styleVariants({
  primary: [base, { background: site.primary, color: site.onPrimary }],
  secondary: [base, { background: tokens.surface, color: tokens.text, borderColor: tokens.border }],
  ghost: [base, { background: 'transparent', color: 'inherit', borderColor: 'currentColor' }],
})
