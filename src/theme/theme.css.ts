import { createGlobalTheme, createThemeContract, globalStyle } from '@vanilla-extract/css'

/** What website info may change at run time; everything else is fixed design tokens. */
export const site = createThemeContract({
  primary: null,
  secondary: null,
  onPrimary: null,
  logoWidth: null,
  logoMobileWidth: null,
  bodyImage: null,
  footerImage: null,
})

createGlobalTheme(':root', site, {
  primary: '#0f766e',
  secondary: '#f59e0b',
  onPrimary: '#ffffff',
  logoWidth: '140px',
  logoMobileWidth: '110px',
  bodyImage: 'none',
  footerImage: 'none',
})

export const tokens = {
  text: '#1f2937',
  muted: '#4b5563',
  surface: '#ffffff',
  page: '#f5f6f8',
  border: '#d9dde3',
  danger: '#b91c1c',
  success: '#15803d',
  info: '#1d4ed8',
  /** Text on danger, success, info, neutral and whatsapp backgrounds. */
  onColor: '#ffffff',
  neutral: '#374151',
  /** A notice that asks for attention without alarm (the offline note). */
  notice: '#fef3c7',
  onNotice: '#78350f',
  /** WhatsApp's green, dark enough for white text. */
  whatsapp: '#1a7f43',
  radius: '10px',
  shadow: '0 1px 3px rgb(0 0 0 / 0.12)',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", "Noto Sans", Tahoma, sans-serif',
} as const

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' })

globalStyle('html', { WebkitTextSizeAdjust: '100%' })

globalStyle('body', {
  margin: 0,
  fontFamily: tokens.font,
  color: tokens.text,
  background: tokens.page,
  backgroundImage: site.bodyImage,
  backgroundSize: 'cover',
  backgroundAttachment: 'fixed',
  lineHeight: 1.5,
})

globalStyle('a', { color: 'inherit' })

// Controls write in the store's font too (browsers give them their own, Arial on most), so no
// label or badge looks apart and no second font is loaded for them.
globalStyle('button, input, select, textarea', { fontFamily: 'inherit' })

globalStyle('img', { maxInlineSize: '100%', display: 'block' })

globalStyle(':focus-visible', { outline: `3px solid ${site.secondary}`, outlineOffset: '2px' })

/** Phones (and narrow windows): the layout's one breakpoint. */
export const phone = 'screen and (max-width: 640px)'
export const wide = 'screen and (min-width: 641px)'
