import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  ASK_EARLY_REPLIES,
  EARLY_ENTRY,
  EARLY_LISTS,
  EARLY_MODULES_ID,
  EARLY_REPLIES,
  EARLY_REPLIES_AT,
  EARLY_REPLIES_TOKEN,
  LINK_EARLY_MODULES,
  ORDER_FORM_FILES,
  PACKAGE_PAGE_FILES,
  PRODUCT_PAGE_FILES,
  SERVICE_TABS_FILES,
} from '../../src/api/early-replies'
import { LANGUAGE_KEY, TIME_ZONE_KEY, TOKEN_KEY } from '../../src/api/storage-keys'
import {
  ROUTE_SCREEN,
  ROUTE_SCREEN_MODULES,
  ROUTE_SCREEN_PATH,
  type CatalogueRoute,
  type ListScreen,
} from '../../src/app/screen-routes'
import type { ListScreenReplies } from '../../src/contract/list-screens'
import { FIRST_PICTURE, FIRST_USE_EVENTS, INSTALL_OFFER } from '../../src/contract/constants'
import type { Locale } from '../../src/contract/common'
import { TEXT_DIRECTIONS } from '../../src/contract/locales'
import { iconHref, pictureSrcSet, SLIDE_SIZES, SLIDE_WIDTH } from '../../src/contract/pictures'
import {
  FIRST_SCREEN_ID,
  FIRST_SCREEN_PRESSES,
  type FirstScreen,
  type RouteScreenReplies,
} from '../../src/contract/site'
import type {
  RenderedFirstScreen,
  renderFirstScreen,
  renderListScreen,
  renderRouteScreen,
} from '../../src/entry-server'

/** The replies a first visit needs before it can paint home, as the API gives them. */
const PATHS = {
  website_info: '/api/website/info',
  slider: '/api/slider/images',
  products: '/api/products?page=1&per_page=15&local=en',
  groups: '/api/products/groups?local=en',
  contact: '/api/contact-us/info?local=en',
} as const

/** Home's replies in `locale`: the products come in the visitor's language. */
const homePaths = (locale: Locale) => ({
  ...PATHS,
  products: `/api/products?page=1&per_page=15&local=${locale}`,
  groups: `/api/products/groups?local=${locale}`,
  contact: `/api/contact-us/info?local=${locale}`,
})

type Request = (path: string, init?: RequestInit) => Response | Promise<Response>

/**
 * The replies of `paths`, asked of the API in process (with `init`'s headers); undefined when
 * any of them fails.
 */
async function repliesOf<K extends string>(
  paths: Record<K, string>,
  request: Request,
  init?: RequestInit,
): Promise<Record<K, unknown> | undefined> {
  const replies = await repliesOrStatus(paths, request, init)
  return typeof replies === 'number' ? undefined : replies
}

/** The same, or the status of a reply that failed (500 when the API could not be asked). */
async function repliesOrStatus<K extends string>(
  paths: Record<K, string>,
  request: Request,
  init?: RequestInit,
): Promise<Record<K, unknown> | number> {
  try {
    const entries = await Promise.all(
      Object.entries<string>(paths).map(async ([name, path]) => {
        const res = await request(path, init)
        return [name, res.ok ? ((await res.json()) as unknown) : res.status] as const
      }),
    )
    const failed = entries.find(([, reply]) => typeof reply === 'number')
    if (failed) return failed[1] as number
    return Object.fromEntries(entries) as Record<K, unknown>
  } catch {
    return 500
  }
}

/**
 * The first screen in the page itself (docs/api.md, The first screen): the replies of
 * website/info, slider/images, the first 15 products, the groups and contact-us/info in `locale`, asked of the API in
 * process. Undefined when any of them fails: the page then works as it would without.
 */
export async function firstScreenData(
  request: Request,
  locale: Locale = 'en',
  now = Date.now(),
): Promise<FirstScreen | undefined> {
  const replies = await repliesOf(homePaths(locale), request)
  if (!replies) return undefined
  return {
    generated_at: now,
    locale,
    website_info: replies.website_info,
    slider: replies.slider,
    products: replies.products,
    groups: replies.groups,
    contact: replies.contact,
  } as FirstScreen
}

/**
 * The replies a product's or package's first screen is made from, in `locale`, asked of the
 * API in process; undefined when any of them fails (an unknown product: 404).
 */
export async function routeScreenData(
  route: CatalogueRoute,
  locale: Locale,
  request: Request,
): Promise<RouteScreenReplies | undefined> {
  const local = `?local=${locale}`
  const shared = { website_info: PATHS.website_info, contact: homePaths(locale).contact }
  const paths: Record<string, string> =
    route.kind === 'product'
      ? {
          ...shared,
          product: `/api/products/${route.id}${local}`,
          packages: `/api/products/${route.id}/packages${local}&page=1&per_page=300`,
        }
      : { ...shared, package: `/api/products/packages/${route.id}${local}` }
  const replies = await repliesOf(paths, request)
  return replies && ({ locale, ...replies } as unknown as RouteScreenReplies)
}

/**
 * The replies a signed-in customer's list screen is made from, in `locale`, with the customer's
 * profile, asked of the API in process with the customer's `authorization`; or the status of
 * the one that failed (401 for a session that has ended). The orders' automated statuses are
 * refreshed first, as the storefront's list does, so the list shows them.
 */
export async function listScreenData<K extends ListScreen>(
  kind: K,
  locale: Locale,
  authorization: string,
  request: Request,
): Promise<ListScreenReplies<K> | number> {
  const init = { headers: { Authorization: authorization } }
  const local = `?local=${locale}`
  if (kind === 'orders') {
    const refreshed = await repliesOrStatus(
      { bulk: `/api/automated/get/status/bulk${local}` },
      request,
      init,
    )
    if (typeof refreshed === 'number') return refreshed
  }
  const list: Record<string, string> =
    kind === 'orders'
      ? { orders: `/api/orders${local}&page=1` }
      : { logs: `/api/payment-logs${local}&page=1` }
  // The customer's profile too: the account bar shows the balance without a call of its own;
  // and the contact details, for the footer's links.
  const replies = await repliesOrStatus(
    {
      website_info: PATHS.website_info,
      profile: `/api/profile${local}`,
      contact: `/api/contact-us/info${local}`,
      ...list,
    },
    request,
    init,
  )
  if (typeof replies === 'number') return replies
  return { locale, ...replies } as unknown as ListScreenReplies<K>
}

/** What `vite build --ssr` makes of src/entry-server.tsx. */
export interface ScreenRenderers {
  renderFirstScreen: typeof renderFirstScreen
  renderRouteScreen: typeof renderRouteScreen
  renderListScreen: typeof renderListScreen
}

/**
 * The renderers built into `dir`, loaded on first use; undefined while they are not built (the
 * page then carries the replies only) or when they fail to load.
 */
export function firstScreenRenderer(dir: string): () => Promise<ScreenRenderers | undefined> {
  const file = `${dir}/entry-server.js`
  let loaded: Promise<ScreenRenderers | undefined> | undefined
  return () => {
    if (loaded) return loaded
    if (!existsSync(file)) return Promise.resolve(undefined)
    loaded = import(pathToFileURL(file).href).then(
      (module: ScreenRenderers) => module,
      () => undefined,
    )
    return loaded
  }
}

/**
 * The styles a product's or package's first screen needs when it carries the order form, from
 * the build whose page is `shell` (in `distDir`): the form's and its tabs' stylesheets, which
 * the page itself does not load (EARLY_MODULES names them), as one text. The screen sends it
 * for the page's first script to apply before it shows the form: as files, they would be more
 * requests before a phone's first paint. Read once per build; empty when it names none.
 */
export function formStylesOf(distDir: string): (shell: string) => string {
  let kept: { shell: string; styles: string } | undefined
  return (shell) => {
    if (kept?.shell === shell) return kept.styles
    const listed = new RegExp(
      `<script type="application/json" id="${EARLY_MODULES_ID}">([^<]*)</script>`,
    ).exec(shell)?.[1]
    let styles = ''
    try {
      const modules = JSON.parse(listed ?? '{}') as Record<string, string[] | undefined>
      const files = new Set(
        [ORDER_FORM_FILES, SERVICE_TABS_FILES].flatMap((key) =>
          (modules[key] ?? []).filter((file) => file.endsWith('.css')),
        ),
      )
      styles = [...files].map((file) => readFileSync(join(distDir, file), 'utf8')).join('')
    } catch {
      // A build without the list, or a file gone: the form is shown with the page's styles.
    }
    kept = { shell, styles }
    return styles
  }
}

/** The id of the element that holds the server's markup of home. */
const MARKUP_ID = 'first-screen-markup'
const PRELOADS_ID = 'app-preloads'
const SLIDE_PRELOAD_ID = 'first-slide'
/** On the page's root element when home's markup has a signed-in customer's bars. */
const SIGNED_IN_ATTRIBUTE = 'data-signed-in'
/**
 * On the page's root element when the page was asked for without any of the store's cookies
 * (`VISITED_COOKIE`): the browser's first visit, whose storage holds nothing of the store.
 */
const FIRST_VISIT_ATTRIBUTE = 'data-first-visit'
const STEPPED_ASIDE = 'no-first-screen'
/**
 * On the page's root element while a page's own first screen is on its way: the skeleton waits,
 * so that the page paints once, with its screen, rather than the skeleton and then the screen
 * (whose first style and layout, the page's largest task, would come after the first paint, while
 * the customer may already press). Shown after `SKELETON_AFTER_MS` all the same, or as soon as
 * the screen cannot come.
 */
const SCREEN_COMING = 'first-screen-coming'
const SKELETON_AFTER_MS = 1000
/**
 * On the page's root element from the customer's first touch or scroll. Until then a touch
 * screen's page has no scroll bar: Chromium flashes its overlay bar once as a phone's page loads,
 * some twenty frames at 60 a second that the compositor draws beside the page's start (and
 * Lighthouse screenshots, one a frame). A touch screen shows the bar only while it scrolls, so
 * the customer sees it as before.
 */
const SCROLLBAR_SHOWN = 'touched'
/**
 * The preloads the page's first script appends in one task, as the storefront's own
 * (`PER_TASK` of src/ui/preload-listed.ts): each starts a request, a millisecond or two of the
 * main thread on a slow phone, and a customer's list page preloads about thirty files.
 */
const LINKS_A_TASK = 3

/**
 * Run in the head, before the body is painted. It keeps the presses on the markup's buttons
 * until the storefront has taken the page over and presses them again (src/main.tsx), and the
 * browser's offer to install until the storefront's script takes it (src/pwa/install-offer.ts). The
 * markup is home in the page's language (the `language` cookie's, English without one), with a
 * visitor's bars or, with the `signed-in` cookie, a customer's (`data-signed-in` on the root
 * element), so a page opened at another route (the hash), in another language than the page's
 * or with or without a session unlike the markup (the stored ones decide: the cookies may lag
 * behind them; on a first visit, `data-first-visit`, nothing is stored and the storage is not
 * read) shows the static skeleton instead until the storefront renders. Only a page that shows home
 * asks for its first slide at once (the preload waits in a template before this script; the
 * markup's slide is lazy, so a hidden home loads no picture).
 *
 * A product or package page opened from a link (a hash route, which the server never sees)
 * does not wait for the storefront's script either:
 * - signed out, in the page's language, it asks the server for its own first screen in that
 *   language (`/first-screen/products/...?local=`) and shows it in place of home's markup,
 *   with the styles it came with (those of the order form it carries, `formStylesOf`);
 *   the request waits in `window[ROUTE_SCREEN]` for the storefront, which takes it over
 *   (src/app/route-screens.ts) or, once it has gone on without, makes the script leave the
 *   page alone;
 * - otherwise it asks for the page's catalogue replies: the same anonymous GETs at the same
 *   URLs as the storefront's own calls, kept for it in `window[EARLY_REPLIES]` with the
 *   address they were made for (src/api/early-replies.ts); as they arrive, the pictures the page shows first (the
 *   product's and its first four packages', or the package's) are preloaded.
 *
 * A signed-in customer's orders or wallet opened from a link (`EARLY_LISTS`, without filters):
 * - in the page's language, on a device whose time zone the storefront has kept, it asks the
 *   server for the list's own first screen (`/first-screen/Orders`, `/first-screen/wallet`)
 *   with the customer's session, language and time zone, and shows it as a product's (above;
 *   the storefront takes it over in src/app/list-screens.ts) once the page's own styles
 *   (`EARLY_MODULES`, below) have loaded too, with the bar's link to the page scrolled into
 *   view (the bar's row scrolls sideways on a phone, and the orders' link can lie past its
 *   edge, as the storefront's bar would show it); the page's own modules
 *   are preloaded with the storefront's entry (`ROUTE_SCREEN_MODULES`, APP_LOADER), after the
 *   screen's paint;
 * - otherwise it asks for the list's first page the same way as a product's replies, with the
 *   page rather than after the scripts, with the customer's session (kept beside them: only
 *   calls with that session use them), and preloads the storefront's entry and what it loads
 *   first, then the page's own modules and styles and its language's messages, which the build
 *   names in the page before this script (`EARLY_MODULES`).
 *
 * Those preloads are linked a few a task (`LINKS_A_TASK`), in order: a customer's list page
 * names about thirty files, which linked at once made one task of 18 to 22 ms of a slow
 * machine's CPU.
 */
export const MARKUP_GUARD =
  `(function(){var d=document,k=d.documentElement,h=location.hash,g=k.hasAttribute('${SIGNED_IN_ATTRIBUTE}'),l,t,z;` +
  // Links the files the page names under the keys `c` (EARLY_MODULES): with `v` true only the
  // styles, as stylesheets (resolving once they have loaded), with `v` false only the modules,
  // without `v` both (the styles preloaded).
  `var x=window.${LINK_EARLY_MODULES}=function(c,v){` +
  `var f=d.getElementById('${EARLY_MODULES_ID}'),y=f?JSON.parse(f.textContent):{},w=[],q=[];` +
  `c.forEach(function(c){(y[c]||[]).forEach(function(u){var n=d.createElement('link'),s=u.slice(-4)==='.css';` +
  `if(v===!s)return;if(s){n.rel=v?'stylesheet':'preload';n.as='style'}else n.rel='modulepreload';` +
  `v&&w.push(new Promise(function(f){n.onload=n.onerror=f}));` +
  `n.crossOrigin='';n.href=u;q.push(n)})});` +
  // A few links a task, in order: each starts a request, which costs the main thread.
  `(function b(){q.splice(0,${LINKS_A_TASK}).forEach(function(n){d.head.appendChild(n)});q.length&&setTimeout(b)})();` +
  `return Promise.all(w)};` +
  // Starts the early replies of the address `h` in the language `p`, with the headers `a`, kept
  // for the session `c` ('' for none): a signed-in list's calls `s`, or a product's or package's.
  `var A=window.${ASK_EARLY_REPLIES}=function(h,p,a,c,s){` +
  `var o=location.origin+'/api/',q='?local='+p,m=/^#${ROUTE_SCREEN_PATH.source.slice(1)}/.exec(h),` +
  `e=window.${EARLY_REPLIES}={${JSON.stringify(EARLY_REPLIES_AT)}:h,${JSON.stringify(EARLY_REPLIES_TOKEN)}:c},` +
  `g=function(p){var u=o+p;return e[u]=fetch(u,{headers:a})},` +
  `i=function(u){if(typeof u==='string'){var n=d.createElement('link');` +
  `n.rel='preload';n.as='image';n.href=u;d.head.appendChild(n)}},` +
  `j=function(x){return x.ok?x.clone().json():{}},` +
  `n=function(){};` +
  `if(s)s.forEach(function(c){g(c[0]+q+c[1])});` +
  `else if(m[1])g('products/packages/'+m[2]+q).then(j).then(function(b){i(b.data&&b.data.image)}).catch(n);` +
  `else{g('products/'+m[2]+q).then(j).then(function(b){i(b.data&&b.data.image)}).catch(n);` +
  `g('products/'+m[2]+'/packages'+q+'&page=1&per_page=300').then(j).then(function(b){` +
  `(b.data||[]).slice(0,4).forEach(function(p){i(p&&p.image)})}).catch(n)}};` +
  `addEventListener('beforeinstallprompt',function(e){e.preventDefault();window.${INSTALL_OFFER}=e});` +
  `['touchstart','scroll'].forEach(function(n){addEventListener(n,function(){` +
  `k.classList.add('${SCROLLBAR_SHOWN}')},{once:!0,passive:!0})});` +
  `window.${FIRST_SCREEN_PRESSES}=[];d.addEventListener('click',function(e){` +
  `var q=window.${FIRST_SCREEN_PRESSES},b=q&&e.target.closest&&e.target.closest('#${MARKUP_ID} button');` +
  `if(b){e.preventDefault();e.stopPropagation();q.push(b)}},true);` +
  // A first visit's storage is empty: each storage's first use is a call to the browser that the
  // page would wait for, a slow phone's busiest moment.
  `if(!k.hasAttribute('${FIRST_VISIT_ATTRIBUTE}'))try{l=localStorage.getItem('${LANGUAGE_KEY}');z=localStorage.getItem('${TIME_ZONE_KEY}');` +
  `t=localStorage.getItem('${TOKEN_KEY}')||sessionStorage.getItem('${TOKEN_KEY}')}catch(e){}` +
  `var p=l==='ar'?'ar':'en';` +
  `if(h.length>2||p!==k.lang||!t!==!g)k.classList.add('${STEPPED_ASIDE}');` +
  `else{var f=d.getElementById('${SLIDE_PRELOAD_ID}');f&&d.head.appendChild(f.content)}` +
  `var m=/^#${ROUTE_SCREEN_PATH.source.slice(1)}/.exec(h),` +
  `s=t&&${JSON.stringify(EARLY_LISTS)}[h];if(!m&&!s)return;` +
  `try{var a={Accept:'application/json'},` +
  `w=p!==k.lang?null:m&&!t?'?local='+p:s&&z?'?local='+p+'&tz='+encodeURIComponent(z):null;` +
  `if(s)a.Authorization='Bearer '+t;` +
  `if(w!==null){k.classList.add('${SCREEN_COMING}');` +
  `var u=function(){k.classList.remove('${SCREEN_COMING}')};setTimeout(u,${SKELETON_AFTER_MS});` +
  `var r=window.${ROUTE_SCREEN}=Promise.all([fetch('/first-screen'+h.slice(1)+w,{headers:a})` +
  `.then(function(x){return x.ok?x.json():null}),s&&x([h],!0)]).then(function(c){c=c[0];` +
  `var e=d.getElementById('${MARKUP_ID}');` +
  `if(!c||typeof c.markup!=='string'||window.${ROUTE_SCREEN}!==r||!e)return null;` +
  `if(typeof c.style==='string'){var y=d.createElement('style');y.textContent=c.style;d.head.appendChild(y)}` +
  `e.innerHTML=c.markup;k.classList.remove('${STEPPED_ASIDE}');` +
  // The bar's link of the page, not the footer's.
  `var v=e.querySelector('nav [aria-current="page"]');` +
  `v&&!v.closest('footer')&&v.scrollIntoView({block:'nearest',inline:'nearest'});return c})` +
  `.catch(function(){return null}).then(function(c){u();return c});` +
  `if(s)window.${ROUTE_SCREEN_MODULES}=function(){x([h,p],!1)};return}` +
  `A(h,p,a,s?t:'',s);s&&x([${JSON.stringify(EARLY_ENTRY)},h,p])}catch(e){}})()`

/**
 * How long a page that shows the server's markup waits, once its main picture is painted, for
 * the customer's first use before the storefront starts anyway.
 */
const START_AFTER_MS = 4000
/**
 * How long a page without a main picture waits, two frames after its screen, for the browser to
 * report that screen's largest paint, before it takes the screen as painted anyway.
 */
const SCREEN_PAINT_WAIT_MS = 300
/** The customer's first use: a link followed too, and the page's own scroll. */
const FIRST_USE = [...FIRST_USE_EVENTS, 'hashchange']

/**
 * With the markup in the page, the storefront's scripts are asked for only once the page's main
 * picture is painted: home's first slide, or a product's, package's or customer's list page's
 * own first screen (a list's with its page's own modules) once it is shown. The script waits
 * for the markup's first pictures (those not loaded lazily, and the main one) to load and be
 * decoded, then for the browser to report the main picture painted (Element Timing), or on a
 * page without one, its screen's largest paint (two frames on, and `SCREEN_PAINT_WAIT_MS` at
 * most; two frames where the browser reports neither), so that neither the scripts' transfer
 * nor their evaluation comes before that paint; after 1.5 s at the latest (the timer is set
 * first, so that a browser without what the wait uses still starts). The report, not the
 * frames: on a busy phone a frame is shown well after it was made, and the paint is what counts.
 *
 * Then the storefront starts at the customer's first use of the page (a touch, a press, a key,
 * a scroll, a link followed; one made earlier starts it at once) or after `START_AFTER_MS` without
 * one: the markup is the whole first screen, its links are links and its buttons' presses are
 * kept and pressed again (MARKUP_GUARD), so a slow phone's CPU goes to the customer's first look
 * rather than to code not yet needed. Its files are prefetched meanwhile (fetched, not run), so
 * the first use waits for their evaluation, not their transfer. When the first link followed
 * is a product's or package's page, that page's own files and its language's messages (named in
 * the page: `PRODUCT_PAGE_FILES`, `PACKAGE_PAGE_FILES`) are asked for at once too, while the
 * storefront's script runs, instead of one round trip after it, and so are its replies, with
 * the first script's `ASK_EARLY_REPLIES` (not once the storefront has shown home: its router
 * may have asked for them already). The storefront then hydrates the
 * markup. A page that does not show any markup (the guard stepped it aside) or is in the
 * background starts at once. The preloads wait in a template, the entry script first, with the
 * manifest's link (withFirstScreen); a list page's own modules are linked from the next task on.
 */
export const APP_LOADER =
  `(function(){var d=document,done=0,used=0,shown=0,r=window.${ROUTE_SCREEN},` +
  `t=d.getElementById('${PRELOADS_ID}').content,go=function(){if(done++)return;` +
  `var s=d.createElement('script'),` +
  `l=window.${ROUTE_SCREEN_MODULES};` +
  `s.type='module';s.crossOrigin='';s.src=t.querySelector('link').getAttribute('href');` +
  `d.head.appendChild(t);d.head.appendChild(s);l&&setTimeout(l)},` +
  `use=function(){used=1;shown&&go()},` +
  // Painted: the files are fetched meanwhile, and the start waits for the first use.
  `ready=function(){if(shown++||done)return;if(used)return go();` +
  `[].forEach.call(t.querySelectorAll('[rel=modulepreload]'),function(k){` +
  `var n=d.createElement('link');n.rel='prefetch';n.crossOrigin='';n.href=k.getAttribute('href');d.head.appendChild(n)});` +
  `setTimeout(go,${START_AFTER_MS})},` +
  `w=function(m){if(!m)return go();` +
  `var n=function(){},p=m.querySelector('img[elementtiming="${FIRST_PICTURE}"]'),` +
  `a=[].slice.call(m.querySelectorAll('img')).filter(function(i){` +
  `return i===p||i.loading!=='lazy'}),` +
  `e=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];` +
  `Promise.all(a.map(function(i){return i.complete?0:new Promise(function(f){` +
  `i.addEventListener('load',f);i.addEventListener('error',f)})}))` +
  `.then(function(){return Promise.all(a.map(function(i){return i.decode?i.decode().catch(n):0}))})` +
  `.then(function(){var s=performance.now(),o=function(y,c){new PerformanceObserver(function(l){` +
  `l.getEntries().forEach(function(x){c(x)&&setTimeout(ready)})}).observe({type:y,buffered:true})},` +
  `f=e.indexOf('largest-contentful-paint')<0?0:${SCREEN_PAINT_WAIT_MS};` +
  `if(p&&p.naturalWidth&&e.indexOf('element')>=0)return o('element',function(x){return x.element===p});` +
  `f&&o('largest-contentful-paint',function(x){return x.startTime>=s});` +
  `requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(ready,f)})})})};` +
  `${JSON.stringify(FIRST_USE)}.forEach(function(n){addEventListener(n,use,{capture:!0,passive:!0,once:!0})});` +
  `addEventListener('scroll',use,{passive:!0,once:!0});` +
  // A product's or package's page followed first: its files are asked for now, beside the
  // storefront's start, rather than once its script has run and imported them.
  // Its replies too, unless the storefront has shown home already (its router may have them).
  `addEventListener('hashchange',function(){var k=d.documentElement,x=window.${LINK_EARLY_MODULES},` +
  `h=location.hash,m=/^#${ROUTE_SCREEN_PATH.source.slice(1)}/.exec(h);` +
  `if(!m||!x||k.classList.contains('${STEPPED_ASIDE}'))return;` +
  `x([m[1]?'${PACKAGE_PAGE_FILES}':'${PRODUCT_PAGE_FILES}',k.lang],!1);` +
  `window.${FIRST_SCREEN_PRESSES}&&window.${ASK_EARLY_REPLIES}(h,k.lang,{Accept:'application/json'},'')},{once:!0});` +
  `setTimeout(ready,1500);` +
  `if(d.visibilityState==='hidden')go();` +
  `else if(r)r.then(function(c){w(c&&d.getElementById('${MARKUP_ID}'))});` +
  `else if(d.documentElement.classList.contains('${STEPPED_ASIDE}'))go();` +
  `else w(d.getElementById('${MARKUP_ID}'))})()`

const hashOf = (script: string) =>
  `'sha256-${createHash('sha256').update(script).digest('base64')}'`

/** For the Content-Security-Policy: these two are the only inline scripts that may run. */
export const INLINE_SCRIPT_HASHES = [hashOf(MARKUP_GUARD), hashOf(APP_LOADER)]

const MARKUP_STYLE =
  `#${MARKUP_ID}{display:contents}.${STEPPED_ASIDE} #${MARKUP_ID},` +
  `html:not(.${STEPPED_ASIDE}) #boot{display:none}.${SCREEN_COMING} #boot{visibility:hidden}` +
  `@media (pointer:coarse){html:not(.${SCROLLBAR_SHOWN}){scrollbar-width:none}}`

/** Text for an HTML attribute (in double quotes) or element. */
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * index.html with the first screen's replies in a JSON script, the first slide asked for at
 * once (with the markup, when the page shows home), and the preloads of the replies it now
 * carries taken out. With `rendered`, the root also holds home's markup (shown unless the guard
 * steps it aside), the styles home's route needs are applied at once instead of preloaded, and
 * the theme, title and icon come from website info, and the storefront's script runs after the
 * first paint (APP_LOADER); `firstVisit` marks it for a browser that holds none of the store's
 * cookies (the guard then does not read the storage). A page without a body end is returned as
 * it is.
 */
export function withFirstScreen(
  html: string,
  data: FirstScreen,
  rendered?: RenderedFirstScreen,
  firstVisit = false,
): string {
  if (!html.includes('</body>')) return html
  // JSON in a script element: `<` escaped, so no text in the data can end the element.
  // Replacements are functions: a `$&` or `$'` in the data must stay as it is.
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  const slide = data.slider.data[0]?.image
  // The copy the slider's picture will pick (src/features/site/slider.tsx), not another.
  const srcset = slide && pictureSrcSet(slide, SLIDE_WIDTH)
  const preload = slide
    ? `<link rel="preload" as="image" href="${escapeHtml(slide)}"` +
      (srcset
        ? ` imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(SLIDE_SIZES)}"`
        : '') +
      ` fetchpriority="high">`
    : ''
  const markup = rendered && html.includes('<div id="root">') ? rendered : undefined
  const page = html
    .replace(
      /<link rel="preload" as="fetch"[^>]*href="[^"]*(website\/info|slider\/images)"[^>]*>/g,
      '',
    )
    .replace(
      '</body>',
      () => `<script id="${FIRST_SCREEN_ID}" type="application/json">${json}</script></body>`,
    )
  // With the markup, the guard asks for the slide when it shows home (below).
  if (!markup) return page.replace('</head>', () => `${preload}</head>`)
  // The entry script first, then what it will load.
  const scripts: string[] = []
  let manifest = ''
  return (
    page
      .replace(
        /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/,
        (_, src: string) => {
          scripts.unshift(`<link rel="modulepreload" crossorigin href="${src}">`)
          return ''
        },
      )
      .replace(/<link rel="modulepreload"[^>]*>\s*/g, (link: string) => {
        scripts.push(link.trim())
        return ''
      })
      // Linked when the storefront starts: once a browser finds the store installable it shows
      // so (an install icon, a prompt), frames of its own that would share the phone's CPU with
      // the first screen.
      .replace(/<link rel="manifest"[^>]*>\s*/, (link: string) => {
        manifest = link.trim()
        return ''
      })
      .replace(/<link rel="preload" as="style"/g, '<link rel="stylesheet"')
      // In the markup's language, and signed in or not: the guard compares them with the
      // stored ones.
      .replace(/<html([^>]*)>/, (_, attributes: string) => {
        const others = attributes.replace(/\s(lang|dir)="[^"]*"/g, '')
        const signedIn = markup.signedIn ? ` ${SIGNED_IN_ATTRIBUTE}` : ''
        const first = firstVisit ? ` ${FIRST_VISIT_ATTRIBUTE}` : ''
        return `<html lang="${data.locale}" dir="${TEXT_DIRECTIONS[data.locale]}"${others}${signedIn}${first} style="${escapeHtml(markup.style)}">`
      })
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(markup.title)}</title>`)
      // The store's own icon from the start: the storefront would otherwise swap the built one
      // for it, and the browser fetch and decode both.
      .replace(/<link rel="icon"[^>]*>/, (link) =>
        markup.icon ? `<link rel="icon" href="${escapeHtml(iconHref(markup.icon))}">` : link,
      )
      // First in the head (a script after a stylesheet would wait for it to load), after the
      // early modules' names it reads and the page's viewport: the slide's preload picks its
      // copy by the screen's width (before the viewport, a phone's page is 980 px wide).
      .replace(
        new RegExp(
          `<head>(\\s*<script type="application/json" id="${EARLY_MODULES_ID}">[^<]*</script>)?` +
            `(\\s*<meta charset="[^"]*"\\s*/?>)?(\\s*<meta name="viewport"[^>]*>)?`,
        ),
        (head) =>
          `${head}<template id="${SLIDE_PRELOAD_ID}">${preload}</template>` +
          `<script>${MARKUP_GUARD}</script><style>${MARKUP_STYLE}</style>`,
      )
      .replace('</body>', () => {
        return `<template id="${PRELOADS_ID}">${scripts.join('')}${manifest}</template><script>${APP_LOADER}</script></body>`
      })
      .replace('<div id="root">', () => {
        return `<div id="root"><div id="${MARKUP_ID}">${markup.markup}</div>`
      })
  )
}
