import { style } from '@vanilla-extract/css'
import { phone, site, tokens, wide } from '../../theme/theme.css'

export const phoneOnly = style({ '@media': { [wide]: { display: 'none' } } })
export const wideOnly = style({ '@media': { [phone]: { display: 'none' } } })

export const bar = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  '@media': { [phone]: { gap: '0.25rem' } },
})

/**
 * A control on the bar: the bar's own colours (website info picks the text colour that reads
 * best on its primary colour), outlined.
 */
export const chip = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '0.35rem',
  minBlockSize: '40px',
  minInlineSize: '40px',
  paddingInline: '0.7rem',
  borderRadius: tokens.radius,
  border: '1px solid currentColor',
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  fontWeight: 700,
  textDecoration: 'none',
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  '@media': { [phone]: { paddingInline: '0.45rem' } },
})

export const balance = style([chip, { fontVariantNumeric: 'tabular-nums' }])

export const menu = style({ position: 'relative' })

export const menuList = style({
  position: 'absolute',
  insetInlineEnd: 0,
  insetBlockStart: 'calc(100% + 0.35rem)',
  minInlineSize: '13rem',
  background: tokens.surface,
  color: tokens.text,
  borderRadius: tokens.radius,
  boxShadow: '0 8px 24px rgb(0 0 0 / 0.2)',
  listStyle: 'none',
  margin: 0,
  padding: '0.35rem',
  zIndex: 30,
})

export const menuTitle = style({
  padding: '0.5rem 0.8rem',
  fontWeight: 700,
  borderBlockEnd: `1px solid ${tokens.border}`,
})

export const menuItem = style({
  display: 'block',
  inlineSize: '100%',
  textAlign: 'start',
  padding: '0.65rem 0.8rem',
  border: 0,
  background: 'none',
  font: 'inherit',
  color: 'inherit',
  textDecoration: 'none',
  borderRadius: '6px',
  cursor: 'pointer',
  selectors: { '&:hover, &:focus-visible': { background: tokens.page, color: site.primary } },
})
