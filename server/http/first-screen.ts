import { createHash } from 'node:crypto'
import { FIRST_SCREEN_ID, type FirstScreen } from '../../src/contract/site'

/** The replies a first visit needs before it can paint home, as the API gives them. */
const PATHS = {
  website_info: '/api/website/info',
  slider: '/api/slider/images',
  products: '/api/products?page=1&per_page=15&local=en',
} as const

/**
 * The first screen in the page itself (docs/api.md, The first screen): the replies of
 * website/info, slider/images and the first 15 products in English, asked of the API in
 * process. Undefined when any of them fails: the page then works as it would without.
 */
export async function firstScreenData(
  request: (path: string) => Response | Promise<Response>,
  now = Date.now(),
): Promise<FirstScreen | undefined> {
  try {
    const replies = await Promise.all(
      Object.values(PATHS).map(async (path) => {
        const res = await request(path)
        return res.ok ? ((await res.json()) as unknown) : undefined
      }),
    )
    if (replies.some((reply) => reply === undefined)) return undefined
    const [websiteInfo, slider, products] = replies
    return {
      generated_at: now,
      locale: 'en',
      website_info: websiteInfo,
      slider,
      products,
    } as FirstScreen
  } catch {
    return undefined
  }
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * index.html with the first screen's replies in a JSON script, the first slide asked for at
 * once, and the preloads of the replies it now carries taken out. A page without a body end
 * is returned as it is.
 */
export function withFirstScreen(html: string, data: FirstScreen): string {
  if (!html.includes('</body>')) return html
  // JSON in a script element: `<` escaped, so no text in the data can end the element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  const slide = data.slider.data[0]?.image
  const preload = slide
    ? `<link rel="preload" as="image" href="${escapeAttribute(slide)}" fetchpriority="high">`
    : ''
  return html
    .replace(
      /<link rel="preload" as="fetch"[^>]*href="[^"]*(website\/info|slider\/images)"[^>]*>/g,
      '',
    )
    .replace('</head>', `${preload}</head>`)
    .replace(
      '</body>',
      `<script id="${FIRST_SCREEN_ID}" type="application/json">${json}</script></body>`,
    )
}

/** An entity tag of a text made per request: its hash. */
export const etagOf = (body: string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
