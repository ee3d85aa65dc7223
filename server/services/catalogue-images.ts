import { createHash } from 'node:crypto'

/**
 * Catalogue pictures the project draws itself, so a fresh store looks complete without
 * fetching anything: a square card with a gradient from a palette, an icon for the kind of
 * product, big initials (or a package's short name) and the name in both languages.
 *
 * URLs are `/media/catalogue/<kind>-<id>.<hash>.webp`, the hash being the first 8 hex digits
 * of the SHA-256 of the SVG drawn, like the files in server/media. A rename gives a new URL, so
 * the picture can be cached forever. The storefront is given the WebP (services/
 * made-pictures.ts): a browser lays out and paints an SVG picture on the page's main
 * thread, about 7 ms of a start's CPU per picture, where a WebP is decoded off it. The same
 * name with `.svg` serves the drawing itself.
 */

export const IMAGE_KINDS = ['product', 'package', 'group', 'gallery'] as const
export type ImageKind = (typeof IMAGE_KINDS)[number]

/** Every generated picture but a group's is this size, so the storefront can reserve the box. */
export const IMAGE_SIZE = 400

/**
 * A group's picture is only the round icon at the start of its chip on home (32 px): drawn at
 * twice that, without the names, which could not be read there. At 400 px, as before, a phone
 * fetched and decoded 39 times this icon's pixels (6 KiB a group on home, now 0.8).
 */
export const GROUP_ICON_SIZE = 64

export const CATALOGUE_MEDIA_PREFIX = '/media/catalogue/'

export interface ImageSubject {
  kind: ImageKind
  id: number
  /** The product's number (1 to 7; 0 for a group): chooses the icon and the palette. */
  number: number
  name_en: string
  name_ar: string
  /** Gallery pictures of one product differ by their place. */
  index?: number
}

const PALETTES: readonly (readonly [string, string, string])[] = [
  ['#0f766e', '#1e3a8a', '#5eead4'],
  ['#7c3aed', '#db2777', '#f9a8d4'],
  ['#b45309', '#7c2d12', '#fcd34d'],
  ['#1d4ed8', '#0f172a', '#93c5fd'],
  ['#be123c', '#4c0519', '#fda4af'],
  ['#15803d', '#14532d', '#86efac'],
  ['#0369a1', '#312e81', '#7dd3fc'],
  ['#a21caf', '#1e1b4b', '#f0abfc'],
]

/** One simple line icon per product number, drawn in a 64x64 box. */
const ICONS: Record<number, string> = {
  // a grid of tiles (groups, which have no number)
  0: '<rect x="6" y="6" width="22" height="22" rx="4"/><rect x="36" y="6" width="22" height="22" rx="4"/><rect x="6" y="36" width="22" height="22" rx="4"/><rect x="36" y="36" width="22" height="22" rx="4"/>',
  // game controller
  1: '<path d="M14 24h36a10 10 0 0 1 10 10l-2 12a6 6 0 0 1-10 3l-6-7H22l-6 7a6 6 0 0 1-10-3L4 34a10 10 0 0 1 10-10z"/><path d="M18 31v10M13 36h10"/><circle cx="44" cy="33" r="2.5"/><circle cx="50" cy="39" r="2.5"/>',
  // heart in a speech bubble
  2: '<path d="M8 12h48a4 4 0 0 1 4 4v28a4 4 0 0 1-4 4H26l-12 10V48H8a4 4 0 0 1-4-4V16a4 4 0 0 1 4-4z"/><path d="M32 40s-10-6-10-12a5 5 0 0 1 10-1 5 5 0 0 1 10 1c0 6-10 12-10 12z"/>',
  // coin with a tether sign
  3: '<circle cx="32" cy="32" r="26"/><path d="M20 20h24M32 20v26M22 30c4 2 16 2 20 0"/>',
  // gift card
  4: '<rect x="4" y="14" width="56" height="38" rx="6"/><path d="M4 26h56M24 14v38"/><path d="M24 26c-6-8-14-4-10 0M24 26c6-8 14-4 10 0"/>',
  // play button in a screen
  5: '<rect x="4" y="10" width="56" height="38" rx="6"/><path d="M27 21v16l13-8z"/><path d="M20 56h24"/>',
  // stacked tokens
  6: '<ellipse cx="32" cy="16" rx="22" ry="8"/><path d="M10 16v10c0 4 10 8 22 8s22-4 22-8V16"/><path d="M10 26v10c0 4 10 8 22 8s22-4 22-8V26"/><path d="M10 36v10c0 4 10 8 22 8s22-4 22-8V36"/>',
  // mobile phone
  7: '<rect x="16" y="4" width="32" height="56" rx="6"/><path d="M28 52h8"/><path d="M24 14h16"/>',
}

const FONT = "'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', Tahoma, Arial, sans-serif"

/** Text in SVG is XML: names come from the operator's import file, so escape everything. */
export function escapeXml(text: string): string {
  return text
    .replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
    .replace(
      // Characters XML 1.0 does not allow at all.
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g,
      '',
    )
}

/** Up to two letters from the first words: "PUBG Mobile UC" gives "PM". */
export function initialsOf(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? []
  const letters = words.slice(0, 2).map((w) => [...w][0]!.toLocaleUpperCase('en'))
  return letters.join('') || '?'
}

/** Splits a name into at most two lines of about `width` characters; the rest is elided. */
export function wrapName(name: string, width: number): string[] {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    const next = line ? `${line} ${word}` : word
    if ([...next].length <= width || !line) line = next
    else {
      lines.push(line)
      line = word
    }
  }
  if (line) lines.push(line)
  if (lines.length <= 2) return lines.map((l) => clip(l, width))
  return [clip(lines[0]!, width), clip(lines.slice(1).join(' '), width - 1, true)]
}

function clip(text: string, width: number, forceEllipsis = false): string {
  const chars = [...text]
  if (chars.length <= width && !forceEllipsis) return text
  return chars.slice(0, width).join('').trimEnd() + '…'
}

function paletteFor(subject: ImageSubject) {
  const shift = subject.kind === 'gallery' ? (subject.index ?? 0) + 1 : 0
  return PALETTES[(subject.number + subject.id * 3 + shift) % PALETTES.length]!
}

/** The picture itself: deterministic for a subject. */
export function renderImage(subject: ImageSubject): string {
  const [from, to, glow] = paletteFor(subject)
  const label = `${subject.name_en} – ${subject.name_ar}`
  const gradient = `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`
  const open = (size: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escapeXml(label)}">`
  const iconStroke = `fill="none" stroke="#ffffff" stroke-linecap="round" stroke-linejoin="round"`
  if (subject.kind === 'group') {
    // The 64 px box's icon at 40 px, centred.
    return (
      open(GROUP_ICON_SIZE) +
      `<defs>${gradient}</defs><rect width="64" height="64" fill="url(#bg)"/>` +
      `<g transform="translate(12 12) scale(0.625)" ${iconStroke} stroke-width="5">${ICONS[0]}</g></svg>\n`
    )
  }
  const size = IMAGE_SIZE
  const shortName = [...subject.name_en].length <= 9
  // Packages are mostly amounts ("660 UC"): the name reads better than initials.
  const big =
    subject.kind === 'package' && shortName ? subject.name_en : initialsOf(subject.name_en)
  const bigSize = [...big].length <= 2 ? 120 : [...big].length <= 5 ? 76 : 56
  const en = wrapName(subject.name_en, 22)
  const ar = clip(subject.name_ar.trim(), 26)
  const icon = ICONS[subject.number] ?? ICONS[1]!
  const enLines = en
    .map(
      (line, i) =>
        `<text x="200" y="${300 + i * 30}" font-size="26" font-weight="700">${escapeXml(line)}</text>`,
    )
    .join('')
  const arY = 300 + en.length * 30 + 6
  const badge =
    subject.kind === 'gallery'
      ? `<text x="368" y="54" font-size="22" font-weight="700" text-anchor="end" opacity="0.8">${(subject.index ?? 0) + 1}</text>`
      : ''
  return (
    open(size) +
    `<defs>${gradient}` +
    `<radialGradient id="glow" cx="0.8" cy="0.15" r="0.7"><stop offset="0" stop-color="${glow}" stop-opacity="0.5"/><stop offset="1" stop-color="${glow}" stop-opacity="0"/></radialGradient></defs>` +
    `<rect width="${size}" height="${size}" fill="url(#bg)"/><rect width="${size}" height="${size}" fill="url(#glow)"/>` +
    `<circle cx="360" cy="380" r="120" fill="#ffffff" opacity="0.06"/><circle cx="30" cy="20" r="90" fill="#ffffff" opacity="0.05"/>` +
    `<g transform="translate(32 28) scale(0.9)" ${iconStroke} stroke-width="4" opacity="0.9">${icon}</g>` +
    `<g font-family="${FONT}" fill="#ffffff" text-anchor="middle">` +
    badge +
    `<text x="200" y="${200 + bigSize * 0.35}" font-size="${bigSize}" font-weight="800" letter-spacing="2">${escapeXml(big)}</text>` +
    enLines +
    `<text x="200" y="${arY}" font-size="22" opacity="0.9" direction="rtl" xml:lang="ar">${escapeXml(ar)}</text>` +
    `</g></svg>\n`
  )
}

export const hashOf = (svg: string) => createHash('sha256').update(svg).digest('hex').slice(0, 8)

/** Where the drawn picture of a subject is served. */
export function generatedImageUrl(subject: ImageSubject): string {
  // Drawing and hashing the picture for every order and list row is wasted work: remember
  // the addresses of the last subjects, by everything the picture depends on.
  const key = `${subject.kind}\u0000${subject.id}\u0000${subject.number}\u0000${subject.index ?? ''}\u0000${subject.name_en}\u0000${subject.name_ar}`
  let url = imageUrls.get(key)
  if (url === undefined) {
    url = `${CATALOGUE_MEDIA_PREFIX}${subject.kind}-${subject.id}.${hashOf(renderImage(subject))}.webp`
    if (imageUrls.size >= IMAGE_URLS_KEPT) imageUrls.clear()
    imageUrls.set(key, url)
  }
  return url
}

const IMAGE_URLS_KEPT = 2000
const imageUrls = new Map<string, string>()

/** The formats a drawn picture is served in. */
export type ImageFormat = 'svg' | 'webp'

/** Reads a picture's file name: kind, id, hash and format, or undefined for anything else. */
export function parseImageName(
  name: string,
): { kind: ImageKind; id: number; hash: string; format: ImageFormat } | undefined {
  const match = /^(product|package|group|gallery)-([1-9]\d{0,14})\.([0-9a-f]{8})\.(svg|webp)$/.exec(
    name,
  )
  if (!match) return undefined
  return {
    kind: match[1] as ImageKind,
    id: Number(match[2]),
    hash: match[3]!,
    format: match[4] as ImageFormat,
  }
}
