import type { ReactNode } from 'react'
import type { QueryClient } from '@tanstack/react-query'
// The router's own search parser (a small pure function, in the entry already with its
// serializer, src/ui/nav.tsx): the page reads the address as its route will.
import { defaultParseSearch } from '@tanstack/react-router'
import { ORDER_FILTER_STATUSES, WALLET_LOG_STATUSES } from '../contract/constants'
import type { Locale } from '../contract/locales'
import type { Screens as ConsoleScreens } from '../features/console/console-screen'
import type * as RecoveryPages from '../features/auth/recovery-pages'
import { catalogueQueries } from '../features/catalogue/queries'
import { siteQueries } from '../features/site/queries'
import {
  auditSearch,
  customerSearch,
  listSearch,
  optionalParam,
  pageSearch,
  searchPageSearch,
  signInSearch,
  sortedPageSearch,
  type SearchInput,
} from '../routes/-search'
import { FIRST_PAGE_PATHS, firstPageName, type FirstPageName } from './first-page-paths'
import { ROUTE_SCREEN } from './screen-routes'

/** What a first page's route reads: the path's match, the address's search, the cache. */
interface At {
  match: RegExpExecArray
  search: SearchInput<Record<string, never>>
  queryClient: QueryClient
  locale: Locale
}

/**
 * Whether a product's or package's replies, or a customer's list, come with its first screen:
 * the server renders it with them, or the page's first script is getting it, whose replies the
 * storefront then takes (src/app/route-screens.ts, src/app/list-screens.ts); asked for again,
 * they would be asked twice. Otherwise they are asked for at once, as the route's loader does,
 * from the replies that script asked for when it did (src/api/early-replies.ts).
 */
const withFirstScreen = () => typeof window === 'undefined' || ROUTE_SCREEN in window

/** The path's id (`/groups/2` is 2), as the route's catalogueId gives it. */
const idOf = ({ match }: At) => Number(match[1])

/** One of the password recovery's pages, which share a chunk. */
const recoveryPage = (page: (pages: typeof RecoveryPages) => ReactNode) =>
  import('../features/auth/recovery-pages').then(page)
/** Each chunk asked for by more than one page, in one place. */
const codePage = () => import('../features/auth/code-page')
const orderQueries = () => import('../features/orders/queries')
const walletQueries = () => import('../features/wallet/queries')

/** A console screen behind the console's sign-in, as its route renders it. */
const consoleScreen = (screen: (screens: typeof ConsoleScreens) => ReactNode) =>
  import('../features/console/console-screen').then(({ ConsoleScreen, Screens }) => (
    <ConsoleScreen>{screen(Screens)}</ConsoleScreen>
  ))

/**
 * Each first page as its route renders it (src/routes/), from the page's own chunk: the
 * component with what the route reads from the address, and the replies its loader asks for.
 */
const PAGES: Record<FirstPageName, (at: At) => Promise<ReactNode>> = {
  search: ({ search }) => {
    const { q, page } = searchPageSearch(search)
    return import('../features/catalogue/search-page').then(({ SearchPage }) => (
      <SearchPage q={q.trim()} page={page} />
    ))
  },
  group: (at) => {
    const id = idOf(at)
    void at.queryClient.prefetchQuery(catalogueQueries.group(at.locale, id))
    return import('../features/catalogue/group-page').then(({ GroupPage }) => (
      <GroupPage key={id} id={id} />
    ))
  },
  product: (at) => {
    if (!withFirstScreen()) {
      void at.queryClient.prefetchQuery(catalogueQueries.product(at.locale, idOf(at)))
      void at.queryClient.prefetchQuery(catalogueQueries.packages(at.locale, idOf(at)))
    }
    return Promise.all([
      import('../features/catalogue/product-page'),
      import('./purchase-slots'),
    ]).then(([{ ProductPage }, { DirectPurchaseForm }]) => (
      <ProductPage
        key={idOf(at)}
        id={idOf(at)}
        purchase={(direct) => <DirectPurchaseForm direct={direct} />}
      />
    ))
  },
  package: (at) => {
    if (!withFirstScreen())
      void at.queryClient.prefetchQuery(catalogueQueries.package(at.locale, idOf(at)))
    return Promise.all([
      import('../features/catalogue/package-page'),
      import('./purchase-slots'),
    ]).then(([{ PackagePage }, { PackagePurchaseForm }]) => (
      <PackagePage
        key={idOf(at)}
        id={idOf(at)}
        purchase={(pkg) => <PackagePurchaseForm pkg={pkg} />}
      />
    ))
  },
  about: ({ queryClient, locale }) => {
    void queryClient.prefetchQuery(siteQueries.about(locale))
    return import('../features/site/about-page').then(({ AboutPage }) => <AboutPage />)
  },
  contact: () => import('../features/site/contact-page').then(({ ContactPage }) => <ContactPage />),
  forbidden: () => import('./not-found').then(({ Forbidden }) => <Forbidden />),
  signIn: ({ search }) => {
    const { redirect, reset } = signInSearch(search)
    return import('../features/auth/sign-in-page').then(({ SignInPage }) => (
      <SignInPage redirect={redirect} reset={reset === 1} />
    ))
  },
  signInCode: ({ search }) => {
    const redirect = optionalParam('redirect', search.redirect, 'string')
    return codePage().then(({ CodePage }) => <CodePage kind="sign-in" redirect={redirect} />)
  },
  signUp: () => import('../features/auth/sign-up-page').then(({ SignUpPage }) => <SignUpPage />),
  signUpCode: () => codePage().then(({ CodePage }) => <CodePage kind="sign-up" />),
  forgotPassword: () => recoveryPage(({ ForgotPasswordPage }) => <ForgotPasswordPage />),
  setPassword: () => recoveryPage(({ SetPasswordPage }) => <SetPasswordPage />),
  verificationCode: () => recoveryPage(({ VerificationCodePage }) => <VerificationCodePage />),
  resetLink: ({ match }) => {
    // The router gives its parameters decoded; one it cannot decode is its own to refuse.
    const token = decodeURIComponent(match[1]!)
    return recoveryPage(({ ResetLinkPage }) => <ResetLinkPage token={token} />)
  },
  orders: ({ search, queryClient }) => {
    const list = listSearch(ORDER_FILTER_STATUSES)(search)
    // The list's call and its check's code start beside the page's chunk, not after it.
    if (!withFirstScreen())
      void orderQueries().then(({ prefetchOrders }) => prefetchOrders(queryClient, list))
    return import('../features/orders/orders-page').then(({ OrdersPage }) => (
      <OrdersPage search={list} />
    ))
  },
  order: async (at) => {
    const id = idOf(at)
    const [{ orderQueries: queries }, { OrderPage }] = await Promise.all([
      orderQueries(),
      import('../features/orders/order-page'),
    ])
    void at.queryClient.prefetchQuery(queries.detail(id))
    return <OrderPage key={id} id={id} />
  },
  wallet: ({ search, queryClient }) => {
    const list = listSearch(WALLET_LOG_STATUSES)(search)
    if (!withFirstScreen())
      void walletQueries().then(({ prefetchWallet }) => prefetchWallet(queryClient, list))
    return import('../features/wallet/wallet-page').then(({ WalletPage }) => (
      <WalletPage search={list} />
    ))
  },
  log: async (at) => {
    const id = idOf(at)
    const [{ walletQueries: queries }, { LogPage }] = await Promise.all([
      walletQueries(),
      import('../features/wallet/log-page'),
    ])
    void at.queryClient.prefetchQuery(queries.log(id))
    return <LogPage key={id} id={id} />
  },
  charges: ({ search }) => {
    const { sort, page } = sortedPageSearch(search)
    return import('../features/wallet/charges-page').then(({ ChargesPage }) => (
      <ChargesPage sort={sort} page={page} />
    ))
  },
  charge: async (at) => {
    const id = idOf(at)
    const [{ walletQueries: queries }, { ChargePage }] = await Promise.all([
      walletQueries(),
      import('../features/wallet/charge-page'),
    ])
    void at.queryClient.prefetchQuery(queries.charge(id))
    return <ChargePage key={id} id={id} />
  },
  charging: () =>
    import('../features/wallet/charging-page').then(({ ChargingPage }) => <ChargingPage />),
  notifications: ({ search }) => {
    const { sort, page } = sortedPageSearch(search)
    return import('../features/notifications/notifications-page').then(({ NotificationsPage }) => (
      <NotificationsPage sort={sort} page={page} />
    ))
  },
  // The operator console: anyone gets its own sign-in (docs/api.md, Console); the screen's
  // chunk loads behind it.
  console: () => consoleScreen(({ Today }) => <Today />),
  consoleTopUps: () => consoleScreen(({ TopUps }) => <TopUps />),
  consoleUsdt: () => consoleScreen(({ Usdt }) => <Usdt />),
  consoleSettings: () => consoleScreen(({ Settings }) => <Settings />),
  consoleCatalogue: () => consoleScreen(({ Catalogue }) => <Catalogue />),
  consolePromo: () => consoleScreen(({ Promo }) => <Promo />),
  consoleSlider: () => consoleScreen(({ Slider }) => <Slider />),
  consoleOrders: async ({ search }) => {
    const { consoleOrderSearch } = await import('../features/console/orders-search')
    return consoleScreen(({ Orders }) => <Orders search={consoleOrderSearch(search)} />)
  },
  consoleOrder: (at) => {
    const id = idOf(at)
    return consoleScreen(({ Order }) => <Order key={id} id={id} />)
  },
  consoleCustomers: ({ search }) => {
    const { q, page } = customerSearch(search)
    return consoleScreen(({ Customers }) => <Customers key={q} q={q} page={page} />)
  },
  consoleCustomer: (at) => {
    const id = idOf(at)
    const { page } = pageSearch(at.search)
    return consoleScreen(({ Customer }) => <Customer key={id} id={id} page={page} />)
  },
  consoleAudit: ({ search }) => {
    const filters = auditSearch(search)
    return consoleScreen(({ Audit }) => <Audit search={filters} />)
  },
}

/**
 * The page at `path` (the address's search in `search`, `?q=…`) when it is one shown first
 * without the router (./first-page-paths.ts) for a visitor `signedIn` or not: the component
 * its route renders, with what the route reads from the address, once its chunk has loaded.
 * The replies its route's loader asks for are asked for at once. A search the route would
 * refuse is left to the router, which shows its error. The server renders a product's or
 * package's first screen with it too (src/entry-server.tsx), so the storefront hydrates the
 * same tree.
 */
export function firstPageOf(
  queryClient: QueryClient,
  locale: Locale,
  path: string,
  search: string,
  signedIn: boolean,
): Promise<ReactNode> | undefined {
  const name = firstPageName(path, signedIn)
  if (!name) return undefined
  try {
    return PAGES[name]({
      match: FIRST_PAGE_PATHS[name].exec(path)!,
      // As the router gives it: anything the address holds, each value checked as unknown.
      search: defaultParseSearch(search) as SearchInput<Record<string, never>>,
      queryClient,
      locale,
    })
  } catch {
    return undefined
  }
}
