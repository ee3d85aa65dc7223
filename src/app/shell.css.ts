import { style } from '@vanilla-extract/css'
import { site, tokens } from '../theme/theme.css'

const mobile = 'screen and (max-width: 640px)'

export const skipLink = style({
  position: 'absolute',
  insetInlineStart: '0.5rem',
  insetBlockStart: '-3rem',
  background: tokens.surface,
  padding: '0.5rem 1rem',
  zIndex: 100,
  selectors: { '&:focus': { insetBlockStart: '0.5rem' } },
})

export const topBar = style({
  background: site.primary,
  color: site.onPrimary,
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '0.6rem',
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.75rem',
})

export const logoLink = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  textDecoration: 'none',
  fontWeight: 700,
  fontSize: '1.15rem',
  color: 'inherit',
})

/** A fixed box whatever the logo's shape, so its arrival moves nothing. */
export const logo = style({
  inlineSize: site.logoWidth,
  blockSize: '40px',
  objectFit: 'contain',
  objectPosition: 'start',
  '@media': { [mobile]: { inlineSize: site.logoMobileWidth } },
})

export const search = style({
  flex: '1 1 14rem',
  display: 'flex',
  minInlineSize: 0,
  background: tokens.surface,
  borderRadius: tokens.radius,
  overflow: 'hidden',
  '@media': { [mobile]: { order: 3, flexBasis: '100%' } },
})

export const searchInput = style({
  flex: 1,
  minInlineSize: 0,
  border: 0,
  paddingInline: '0.8rem',
  minBlockSize: '44px',
  font: 'inherit',
  color: tokens.text,
  background: 'transparent',
  selectors: { '&:focus': { outline: 'none' } },
})

export const searchButton = style({
  border: 0,
  background: 'transparent',
  color: tokens.text,
  inlineSize: '44px',
  display: 'grid',
  placeItems: 'center',
  cursor: 'pointer',
})

export const actions = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  marginInlineStart: 'auto',
  flexWrap: 'wrap',
})

export const secondaryBar = style({
  background: tokens.surface,
  borderBlockEnd: `1px solid ${tokens.border}`,
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
})

export const navList = style({
  display: 'flex',
  gap: '0.25rem',
  listStyle: 'none',
  margin: 0,
  padding: 0,
  overflowX: 'auto',
})

export const navLink = style({
  display: 'block',
  paddingInline: '0.9rem',
  paddingBlock: '0.7rem',
  textDecoration: 'none',
  fontWeight: 600,
  borderBlockEnd: '3px solid transparent',
  selectors: {
    '&[data-status="active"]': { borderBlockEndColor: site.primary, color: site.primary },
  },
})

export const main = style({
  minBlockSize: '60vh',
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '1.5rem',
})

export const footer = style({
  background: site.secondary,
  backgroundImage: site.footerImage,
  backgroundSize: 'cover',
  color: '#111827',
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '2rem',
  display: 'grid',
  gap: '1.25rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))',
})

export const footerBox = style({
  background: 'rgb(255 255 255 / 0.88)',
  borderRadius: tokens.radius,
  padding: '1rem',
})

export const footerHeading = style({ fontSize: '1rem', margin: '0 0 0.5rem' })

export const footerList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: '0.25rem',
})

export const footerLink = style({ display: 'inline-block', paddingBlock: '0.3rem' })

export const socials = style({ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' })

export const socialLink = style({
  display: 'grid',
  placeItems: 'center',
  inlineSize: '44px',
  blockSize: '44px',
  borderRadius: '50%',
  background: site.primary,
  color: site.onPrimary,
})

export const whatsapp = style({
  position: 'fixed',
  insetBlockEnd: '1.25rem',
  insetInlineEnd: '1.25rem',
  inlineSize: '56px',
  blockSize: '56px',
  borderRadius: '50%',
  background: '#1a7f43',
  color: '#ffffff',
  display: 'grid',
  placeItems: 'center',
  boxShadow: '0 4px 12px rgb(0 0 0 / 0.25)',
  zIndex: 20,
})

export const popup = style({
  position: 'fixed',
  insetBlockStart: '1rem',
  insetInline: 0,
  marginInline: 'auto',
  inlineSize: 'fit-content',
  paddingInline: '1.25rem',
  paddingBlock: '0.75rem',
  borderRadius: tokens.radius,
  color: '#ffffff',
  fontWeight: 600,
  boxShadow: '0 4px 12px rgb(0 0 0 / 0.25)',
  zIndex: 50,
})

export const online = style({ background: tokens.success })
export const offline = style({ background: '#374151' })

export const page = style({
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.5rem',
})
