import { style } from '@vanilla-extract/css'

/** Read by screen readers, not shown (as a rule set, for a media query's block too). */
export const visuallyHiddenRules = {
  position: 'absolute',
  inlineSize: '1px',
  blockSize: '1px',
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const

export const visuallyHidden = style(visuallyHiddenRules)
