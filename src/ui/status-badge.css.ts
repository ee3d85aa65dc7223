import { style, styleVariants } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'

const base = style({
  display: 'inline-block',
  paddingInline: '0.6rem',
  paddingBlock: '0.1rem',
  borderRadius: '999px',
  fontWeight: 700,
  fontSize: '0.9rem',
  color: tokens.onColor,
  whiteSpace: 'nowrap',
})

export const tone = styleVariants({
  info: [base, { background: tokens.info }],
  success: [base, { background: tokens.success }],
  danger: [base, { background: tokens.danger }],
  neutral: [base, { background: tokens.neutral }],
})
