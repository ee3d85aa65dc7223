import { style } from '@vanilla-extract/css'

// The order's summary in its confirmation.
export const summary = style({
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  gap: '0.4rem 1rem',
  margin: 0,
})

export const summaryValue = style({ margin: 0, textAlign: 'end', fontWeight: 600 })
