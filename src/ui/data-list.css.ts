import { globalStyle, style } from '@vanilla-extract/css'
import { tokens } from '../theme/theme.css'
import { visuallyHiddenRules } from './visually-hidden.css'

/** Below this width a row is a card: a table would be wider than a phone. */
export const narrow = 'screen and (max-width: 40rem)'

export const table = style({
  inlineSize: '100%',
  borderCollapse: 'collapse',
  '@media': { [narrow]: { display: 'block' } },
})

export const head = style({
  '@media': {
    // Kept for screen readers, which announce each cell's column; hidden from sight.
    [narrow]: visuallyHiddenRules,
  },
})

export const body = style({
  '@media': { [narrow]: { display: 'grid', gap: '0.75rem' } },
})

export const row = style({
  '@media': {
    [narrow]: {
      display: 'grid',
      gap: '0.35rem',
      padding: '0.75rem',
      border: `1px solid ${tokens.border}`,
      borderRadius: tokens.radius,
      background: tokens.surface,
    },
  },
})

export const cell = style({
  textAlign: 'start',
  padding: '0.65rem 0.5rem',
  borderBlockEnd: `1px solid ${tokens.border}`,
  verticalAlign: 'middle',
  overflowWrap: 'anywhere',
  '@media': {
    [narrow]: {
      display: 'flex',
      justifyContent: 'space-between',
      alignItems: 'center',
      gap: '0.75rem',
      padding: 0,
      border: 0,
    },
  },
})

/** The cell that names the row: the card's title on a phone. */
export const primary = style({
  '@media': { [narrow]: { fontWeight: 700, fontSize: '1.05rem' } },
})

// On a phone each cell says which column it is, from the header's words.
globalStyle(`${cell}:not(${primary})::before`, {
  '@media': {
    [narrow]: { content: 'attr(data-label)', color: tokens.muted, fontWeight: 600 },
  },
})
