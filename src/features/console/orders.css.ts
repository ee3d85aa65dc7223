import { style } from '@vanilla-extract/css'
import { site, tokens, wide } from '../../theme/theme.css'

/* The Orders screens: the filters and list, and one order with its actions. */

/** The filters: one column on a phone, two on a wide screen. */
export const filters = style({
  display: 'grid',
  gap: '0.75rem',
  alignItems: 'end',
  '@media': { [wide]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
})

/** The two days side by side, each at least half a phone wide. */
export const days = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 8.5rem), 1fr))',
})

export const buttons = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' })

export const lines = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.5rem',
})

/** An order of the list: the whole card is its link, at least a thumb high. */
export const line = style({
  display: 'grid',
  gap: '0.3rem',
  padding: '0.75rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  background: tokens.surface,
  color: 'inherit',
  textDecoration: 'none',
  overflowWrap: 'anywhere',
  selectors: { '&:hover, &:focus-visible': { borderColor: site.primary } },
})

export const lineHead = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.5rem',
  alignItems: 'center',
})

export const lineMeta = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.25rem 0.9rem',
  color: tokens.muted,
})

export const titleRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.5rem',
  alignItems: 'center',
})

/** The order's facts, and its actions beside them on a wide screen. */
export const layout = style({
  display: 'grid',
  gap: '1rem',
  alignItems: 'start',
  '@media': { [wide]: { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)' } },
})

export const column = style({ display: 'grid', gap: '1rem', minInlineSize: 0 })

export const codes = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.4rem',
})

export const code = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.5rem',
  alignItems: 'center',
  fontFamily: 'ui-monospace, monospace',
  overflowWrap: 'anywhere',
})

export const action = style({
  display: 'grid',
  gap: '0.75rem',
  padding: '0.9rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
})

export const textarea = style({ minBlockSize: '5.5rem', resize: 'vertical' })

export const history = style({
  margin: 0,
  paddingInlineStart: '1.2rem',
  display: 'grid',
  gap: '0.3rem',
  overflowWrap: 'anywhere',
})
