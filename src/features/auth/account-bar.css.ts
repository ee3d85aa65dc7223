import { style } from '@vanilla-extract/css'
import { site, tokens } from '../../theme/theme.css'

export const bar = style({ display: 'flex', alignItems: 'center', gap: '0.5rem', flexWrap: 'wrap' })

export const balance = style({
  display: 'inline-flex',
  alignItems: 'center',
  minBlockSize: '44px',
  paddingInline: '0.8rem',
  borderRadius: tokens.radius,
  background: 'rgb(255 255 255 / 0.16)',
  color: 'inherit',
  fontWeight: 700,
  textDecoration: 'none',
  fontVariantNumeric: 'tabular-nums',
})

export const bell = style({
  position: 'relative',
  display: 'grid',
  placeItems: 'center',
  inlineSize: '44px',
  blockSize: '44px',
  color: 'inherit',
})

export const badge = style({
  position: 'absolute',
  insetBlockStart: '2px',
  insetInlineEnd: '0',
  minInlineSize: '1.3rem',
  blockSize: '1.3rem',
  paddingInline: '0.25rem',
  borderRadius: '999px',
  background: '#b91c1c',
  color: '#ffffff',
  fontSize: '0.75rem',
  fontWeight: 700,
  display: 'grid',
  placeItems: 'center',
})

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
