import { setElementVars } from '@vanilla-extract/dynamic'
import { iconHref } from '../contract/pictures'
import type { WebsiteInfo } from '../contract/site'
import { site } from './theme.css'

function length(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined
  return typeof value === 'number' || /^\d+(\.\d+)?$/.test(value) ? `${value}px` : value
}

function image(url: string | null | undefined): string | undefined {
  return url ? `url("${encodeURI(url)}")` : undefined
}

/** Black or white, whichever reads better on the colour given (WCAG relative luminance). */
export function readableOn(hex: string): string {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!match?.[1]) return '#ffffff'
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(match[1]!.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#111827'
}

/** The theme's custom properties website info sets; values it lacks keep the default theme. */
export function themeVars(info: WebsiteInfo): Record<string, string> {
  const values: Partial<Record<keyof typeof site, string>> = {
    primary: info.primary_color,
    secondary: info.secondary_color,
    onPrimary: readableOn(info.primary_color),
    logoWidth: length(info.logo_width),
    logoMobileWidth: length(info.logo_mobile_width),
    bodyImage: image(info.body_bg_image),
    footerImage: image(info.footer_bg_image),
  }
  const vars: Record<string, string> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value) vars[site[key as keyof typeof site]] = value
  }
  return vars
}

/** Fills the theme contract from website info, and the page's name, icon and colour. */
export function applyWebsiteInfo(info: WebsiteInfo, root: HTMLElement = document.documentElement) {
  setElementVars(root, themeVars(info))

  if (info.website_name) document.title = info.website_name
  if (info.icon_url) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (!link) {
      link = document.createElement('link')
      link.rel = 'icon'
      document.head.append(link)
    }
    // The server's page may carry it already: set again, the browser would fetch it again.
    const href = iconHref(info.icon_url)
    if (link.getAttribute('href') !== href) link.href = href
  }
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', info.primary_color)
}
