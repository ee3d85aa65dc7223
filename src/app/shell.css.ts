import { style } from '@vanilla-extract/css'
import { phone, site, tokens, wide } from '../theme/theme.css'
// The bars narrow the kit's buttons (`compact`) and hide some on a phone (`onlyWide`): rules of
// the same weight, which win only when they come after the kit's.
import '../ui/button.css'

export const skipLink = style({
  position: 'absolute',
  insetInlineStart: '0.5rem',
  insetBlockStart: '-3rem',
  background: tokens.surface,
  // In the top bar, whose text is light.
  color: tokens.text,
  padding: '0.5rem 1rem',
  zIndex: 100,
  selectors: { '&:focus': { insetBlockStart: '0.5rem' } },
})

// Phones: the bars keep to two rows (about 100 px together) and nothing wraps.

export const topBar = style({
  position: 'relative',
  background: site.primary,
  color: site.onPrimary,
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '0.5rem',
  display: 'flex',
  alignItems: 'center',
  gap: '0.75rem',
  '@media': { [phone]: { paddingInline: '0.5rem', gap: '0.375rem', paddingBlock: '0.375rem' } },
})

export const logoLink = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  textDecoration: 'none',
  fontWeight: 700,
  fontSize: '1.15rem',
  color: 'inherit',
  // The logo gives way first when a narrow phone has no room for the buttons.
  flexShrink: 1,
  minInlineSize: '2.5rem',
})

/** A fixed box whatever the logo's shape, so its arrival moves nothing. */
export const logo = style({
  inlineSize: site.logoWidth,
  maxInlineSize: '100%',
  blockSize: '40px',
  objectFit: 'contain',
  objectPosition: 'start',
  '@media': { [phone]: { inlineSize: `min(${site.logoMobileWidth}, 24vw)`, blockSize: '36px' } },
})

export const search = style({
  flex: '1 1 14rem',
  display: 'flex',
  minInlineSize: 0,
  background: tokens.surface,
  borderRadius: tokens.radius,
  overflow: 'hidden',
  '@media': {
    // On a phone the box opens over the navigation row, from the search button.
    [phone]: {
      display: 'none',
      position: 'absolute',
      insetInline: '0.5rem',
      insetBlockStart: 'calc(100% + 0.25rem)',
      zIndex: 40,
      boxShadow: '0 4px 12px rgb(0 0 0 / 0.25)',
      border: `1px solid ${tokens.border}`,
    },
  },
})

export const searchOpen = style({ '@media': { [phone]: { display: 'flex' } } })

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

/** A round icon button on the bar: search and language on a phone. */
export const iconButton = style({
  display: 'inline-grid',
  placeItems: 'center',
  minInlineSize: '40px',
  blockSize: '40px',
  paddingInline: '0.25rem',
  border: 0,
  borderRadius: tokens.radius,
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
})

export const onlyPhone = style({ '@media': { [wide]: { display: 'none' } } })

/** The phone's search button sits with the other buttons at the end of the bar. */
export const searchToggle = style({ marginInlineStart: 'auto' })
export const onlyWide = style({ '@media': { [phone]: { display: 'none' } } })

export const actions = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem',
  marginInlineStart: 'auto',
  flexShrink: 0,
  '@media': { [phone]: { gap: '0.25rem' } },
})

/** A bar button that gives up some padding on a phone. */
export const compact = style({
  '@media': { [phone]: { paddingInline: '0.55rem', fontSize: '0.95rem' } },
})

export const secondaryBar = style({
  display: 'flex',
  alignItems: 'center',
  background: tokens.surface,
  borderBlockEnd: `1px solid ${tokens.border}`,
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  '@media': { [phone]: { paddingInline: '0.25rem' } },
})

export const navList = style({
  display: 'flex',
  gap: '0.25rem',
  listStyle: 'none',
  margin: 0,
  padding: 0,
  overflowX: 'auto',
  scrollbarWidth: 'none',
  flex: 1,
  minInlineSize: 0,
})

export const navLink = style({
  display: 'block',
  paddingInline: '0.9rem',
  paddingBlock: '0.6rem',
  textDecoration: 'none',
  fontWeight: 600,
  whiteSpace: 'nowrap',
  borderBlockEnd: '3px solid transparent',
  selectors: {
    '&[data-status="active"]': { borderBlockEndColor: site.primary, color: site.primary },
  },
  '@media': { [phone]: { paddingInline: '0.65rem' } },
})

/** Room at the end for the WhatsApp button, so the last control can scroll clear of it. */
const WHATSAPP_ROOM = '5.5rem'

export const main = style({
  // The footer starts below the first screen, so content arriving later never pushes it away.
  minBlockSize: '100svh',
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '1.5rem',
  '@media': { [phone]: { paddingInline: '0.75rem', paddingBlock: `1rem ${WHATSAPP_ROOM}` } },
})

export const footer = style({
  background: site.secondary,
  color: tokens.text,
  paddingInline: 'max(1rem, calc((100% - 1200px) / 2))',
  paddingBlock: '2rem',
  display: 'grid',
  gap: '1.25rem',
  '@media': { [phone]: { paddingBlockEnd: WHATSAPP_ROOM } },
  gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))',
})

export const footerPicture = style({ backgroundImage: site.footerImage, backgroundSize: 'cover' })

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
  background: tokens.whatsapp,
  color: tokens.onColor,
  display: 'grid',
  placeItems: 'center',
  boxShadow: '0 4px 12px rgb(0 0 0 / 0.25)',
  zIndex: 20,
  // The operator console marks the page (src/features/console/console-gate.tsx): the
  // customers' contact button is not for its screens, and would cover their controls.
  selectors: { 'html[data-console] &': { display: 'none' } },
  '@media': {
    [phone]: {
      insetBlockEnd: '1rem',
      insetInlineEnd: '0.75rem',
      inlineSize: '52px',
      blockSize: '52px',
    },
  },
})

/** The button's full spot, measured but never seen or hit. */
export const whatsappProbe = style({ visibility: 'hidden', pointerEvents: 'none' })

/**
 * Tucked: a narrow tab at the screen's edge, inside the page's margin (12 px of padding plus
 * the cards' own), with the icon peeking out.
 */
export const whatsappTucked = style({
  insetInlineEnd: 0,
  inlineSize: '22px',
  borderStartStartRadius: '14px',
  borderEndStartRadius: '14px',
  borderStartEndRadius: 0,
  borderEndEndRadius: 0,
  overflow: 'hidden',
  justifyItems: 'start',
  paddingInlineStart: '3px',
  boxShadow: '0 2px 6px rgb(0 0 0 / 0.25)',
  // After the button's own phone sizes, so these win there too.
  '@media': { [phone]: { insetInlineEnd: 0, inlineSize: '22px' } },
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
  color: tokens.onColor,
  fontWeight: 600,
  boxShadow: '0 4px 12px rgb(0 0 0 / 0.25)',
  zIndex: 50,
})

export const online = style({ background: tokens.success })
export const offline = style({ background: tokens.neutral })

export const page = style({
  background: tokens.surface,
  borderRadius: tokens.radius,
  boxShadow: tokens.shadow,
  padding: '1.5rem',
})
