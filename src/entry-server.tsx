/**
 * First screens as HTML, made by the server from the API's replies (docs/api.md, The first
 * screen) with the same components the storefront renders: home's, put in the page, so it
 * paints its bars, slider and first products before any script runs; and a product's or
 * package's page, or a signed-in customer's list with the account bar, which the page's first
 * script asks for. Built by `vite build --ssr` into dist-server/; the storefront itself never
 * imports this file.
 */
import { renderToString } from 'react-dom/server'
import { i18n } from '@lingui/core'
import type { QueryClient } from '@tanstack/react-query'
import { assignInlineVars } from '@vanilla-extract/dynamic'
import * as v from 'valibot'
import { messages as arabic } from '../locales/ar/messages.po'
import { messages as english } from '../locales/en/messages.po'
import { createQueryClient } from './api/query-client'
import { websiteInfoQuery } from './api/website-info'
import { App } from './app/app'
import { plainNavigation } from './ui/nav'
import { firstPageOf } from './app/first-pages'
import { seedListScreen } from './app/list-screens'
import { seedRouteScreen } from './app/route-screens'
import type { CatalogueRoute, ListScreen } from './app/screen-routes'
import { renderSignedIn } from './api/token'
import { serveAccountBar } from './app/top-bar'
import { serveFooter } from './app/shell'
import { serveOrderForms } from './app/purchase-slots'
import { ListScreenSchemas, type ListScreenReplies } from './contract/list-screens'
import { INTL_LOCALES, type Locale } from './contract/common'
import {
  RouteScreenSchema,
  WebsiteInfoSchema,
  type FirstScreen,
  type RouteScreenReplies,
} from './contract/site'
import { catalogueQueries } from './features/catalogue/queries'
import { HomePage } from './app/home-page'
import { siteQueries } from './features/site/queries'
import { themeVars } from './theme/apply'

export interface RenderedFirstScreen {
  /** What goes inside the page's root element. */
  markup: string
  /** The theme's custom properties from website info, for the root element's style. */
  style: string
  /** The store's name, for the page's title. */
  title: string
  /** The store's icon, for the page's icon link (without one, the built icon stays). */
  icon?: string
  /** Whether the markup has a signed-in customer's bars. */
  signedIn?: boolean
}

/** The server's process (this file runs in Node, built with the storefront's settings). */
declare const process: { env: Record<string, string | undefined> }

const CATALOGUES = { en: english, ar: arabic } satisfies Record<Locale, unknown>

/**
 * Home in the replies' language, with a visitor's bars or, `signedIn`, a customer's (nothing of
 * the customer's own: the storefront adds the balance and the account's menu).
 */
export async function renderFirstScreen(
  data: FirstScreen,
  signedIn = false,
): Promise<RenderedFirstScreen> {
  const rendered = await render(
    '/',
    data.website_info,
    (queryClient) => {
      queryClient.setQueryData(siteQueries.slider().queryKey, data.slider)
      queryClient.setQueryData(catalogueQueries.products(data.locale).queryKey, data.products)
      queryClient.setQueryData(catalogueQueries.groups(data.locale).queryKey, data.groups)
      queryClient.setQueryData(siteQueries.contact(data.locale).queryKey, data.contact)
    },
    data.locale,
    { signedIn },
  )
  // The first slide is preloaded by the page's first script when it shows home
  // (server/http/first-screen.ts); lazy, a hidden home (another page opened, another language or
  // session than the markup's) loads no picture.
  return {
    ...rendered,
    markup: rendered.markup.replace(/(<img\b[^>]*\bloading=")eager"/g, '$1lazy"'),
    signedIn,
  }
}

export interface RenderedRouteScreen {
  markup: string
  /** Whether the page offers its order form (whose styles the markup then needs). */
  form: boolean
}

/** A product's or package's page (`path`), from its replies, in their language. */
export async function renderRouteScreen(
  path: string,
  route: CatalogueRoute,
  replies: RouteScreenReplies,
): Promise<RenderedRouteScreen> {
  // As the storefront's calls give them: checked, with what the order form reads parsed.
  const checked = v.parse(v.omit(RouteScreenSchema, ['generated_at', 'markup', 'style']), replies)
  const rendered = await render(
    path,
    replies.website_info,
    (queryClient) => {
      if (!seedRouteScreen(queryClient, route, checked, Date.now()))
        throw new Error(`The replies of ${path} are missing`)
    },
    checked.locale,
  )
  // The form marks itself as kept (src/features/ordering/purchase-form.tsx): the markup says
  // whether the page rendered one, without a second copy of the page's choice.
  return { markup: rendered.markup, form: rendered.markup.includes(' data-kept=""') }
}

/**
 * A signed-in customer's orders or wallet (`path`, without filters), from its replies, in the
 * replies' language and with the dates of `timeZone` (an IANA name the caller has checked: an
 * unknown one would read as UTC): its markup.
 */
export async function renderListScreen<K extends ListScreen>(
  path: string,
  kind: K,
  replies: ListScreenReplies<K>,
  timeZone: string,
): Promise<string> {
  // As the storefront's calls give them: checked, amounts as numbers.
  const schema = v.omit(ListScreenSchemas[kind], ['generated_at', 'markup'])
  const checked = v.parse(schema, replies) as unknown as ListScreenReplies<K>
  // The account bar comes with the list, from the profile the replies carry.
  await serveAccountBar()
  const rendered = await render(
    path,
    replies.website_info,
    (queryClient) => seedListScreen(queryClient, kind, checked, Date.now()),
    checked.locale,
    { signedIn: true, timeZone },
  )
  return rendered.markup
}

/**
 * The storefront at `path`, signed out unless `signedIn`, with the replies `seed` puts in its
 * cache, the dates in `timeZone` (the server's own without).
 */
async function render(
  path: string,
  websiteInfo: { website_info: string },
  seed: (queryClient: QueryClient) => void,
  locale: Locale = 'en',
  { signedIn = false, timeZone }: { signedIn?: boolean; timeZone?: string } = {},
): Promise<RenderedFirstScreen> {
  const info = v.parse(WebsiteInfoSchema, JSON.parse(websiteInfo.website_info))
  await Promise.all([serveFooter(), serveOrderForms()])
  i18n.loadAndActivate({ locale, locales: INTL_LOCALES[locale], messages: CATALOGUES[locale] })
  const queryClient = createQueryClient()
  queryClient.setQueryData(websiteInfoQuery().queryKey, info)
  seed(queryClient)
  try {
    // Hydrated before the router has loaded (src/main.tsx): home, or the page the storefront
    // shows first at `path` (src/app/first-pages.tsx), with the links it has then
    // (src/ui/nav.tsx).
    const page =
      path === '/' ? <HomePage /> : await firstPageOf(queryClient, locale, path, '', signedIn)
    if (!page) throw new Error(`${path} is not a first page`)
    const tree: Parameters<typeof App>[0] = {
      queryClient,
      navigation: plainNavigation(() => Promise.resolve(), { pathname: path, search: {} }),
      page,
    }
    // Again: another page's render (in another language) may have run while this one waited.
    // These three hold for the render alone, which runs in one go: the dates the storefront
    // writes with the clock's local time (src/i18n/dates.ts) are in the customer's zone while
    // the process's zone is (Node reads a TZ set as it runs).
    i18n.activate(locale, INTL_LOCALES[locale])
    renderSignedIn(signedIn)
    const processZone = process.env.TZ
    if (timeZone) process.env.TZ = timeZone
    let markup: string
    try {
      markup = renderToString(<App {...tree} />)
    } finally {
      renderSignedIn(false)
      if (processZone === undefined) delete process.env.TZ
      else process.env.TZ = processZone
    }
    const style = Object.entries(assignInlineVars(themeVars(info)))
      .map(([name, value]) => `${name}:${value}`)
      .join(';')
    return {
      markup: markup
        // React writes preloads of the pictures it renders first: home's page asks for its
        // slide in the head, and a route screen's pictures load as soon as it is shown.
        .replace(/^(<link rel="preload"[^>]*>)+/, '')
        // What was typed in a form before the storefront's script runs would be lost when it
        // renders: forms wait for it. A button pressed before then is pressed again once it
        // has taken the page over (the page's first script keeps the press); links work as
        // they are.
        .replace(/<form\b/g, '<form inert'),
      style,
      title: info.website_name,
      icon: info.icon_url ?? undefined,
    }
  } finally {
    // Its garbage-collection timers would otherwise hold the data for days.
    queryClient.clear()
  }
}
