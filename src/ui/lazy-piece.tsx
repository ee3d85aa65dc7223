import {
  startTransition,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { wholeCatalogue } from '../i18n/locale'
import { useOnline } from './use-online'
import { afterSettled } from './when-idle'

export type PieceState = 'loading' | 'failed'

const AS_SERVED = { __html: '' }
const noSubscription = () => () => {}
const isHydrating = () => true
const isNotHydrating = () => false

/**
 * A component whose code is fetched when it is first shown, like React.lazy, but whose failure
 * to load (the page went offline before the service worker had the file) never breaks the
 * page: it shows `placeholder` meanwhile, and tries again once the device is back online.
 * Offline it still tries first: the service worker usually has the file.
 * React.lazy would throw to the nearest error boundary and remember the failure for good. It
 * also waits for the whole catalogue: home's first load has only the messages its files use.
 * With `idle`, a piece the first screen can do without (below the fold, floating) starts
 * loading only once the page is shown and hydrated, its replies have come and the browser is
 * idle (`afterSettled`).
 * A piece whose code was loaded beforehand (`serve`) renders in one go: the storefront loads it
 * so before it hydrates a first screen the server rendered with it (its messages are the whole
 * catalogue's, which a page other than home waits for). In the server's process it renders so
 * in every screen from then on: serve only a piece whose markup needs data that only the
 * screens made with it carry (the account bar, a signed-in customer's profile).
 * With `firstMessages`, its messages come with home's first ones (FIRST_PIECES in
 * vite.config.ts, which must name its chunk) and it does not wait for the whole catalogue.
 * With `kept` (the tag of the piece's outer element), the server renders the piece in its first
 * screens (its code loaded there with `serve`), and the storefront keeps that markup as it is,
 * not hydrated, until the piece's code has come: the page keeps the height it was first drawn
 * with (a piece below the fold that came later made it grow under a customer who had begun to
 * scroll). A page the storefront renders anew shows `placeholder` meanwhile. A form kept so
 * renders `data-kept`: the page's takeover then leaves the server's markup of it `inert`
 * (src/main.tsx) until its code has come, so that nothing is typed in it that the code would
 * replace; should that code fail to load, a `placeholder` that says so takes its place.
 */
export function lazyPiece<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: (state: PieceState) => ReactNode = () => null,
  {
    idle = false,
    firstMessages = false,
    kept,
  }: { idle?: boolean; firstMessages?: boolean; kept?: 'footer' | 'form' } = {},
): ComponentType<P> & { serve: () => Promise<void> } {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  const start = () => {
    pending ??= Promise.all([load(), firstMessages || wholeCatalogue()]).then(
      ([component]) => (loaded = component),
      (error: unknown) => {
        pending = undefined
        throw error
      },
    )
    return pending
  }

  function LazyPiece(props: P) {
    const online = useOnline()
    const queryClient = useQueryClient()
    const [component, setComponent] = useState<{ current: ComponentType<P> } | undefined>(
      () => loaded && { current: loaded },
    )
    const [failed, setFailed] = useState(false)
    // Hydrating the server's markup of the piece, whose code has not come (on the server it
    // has): kept as the server made it. Only a kept piece reads it: the snapshots differ, and
    // React renders a piece whose snapshots differ once more after hydration.
    const hydrating = useSyncExternalStore(
      noSubscription,
      isNotHydrating,
      kept ? isHydrating : isNotHydrating,
    )
    const [keep] = useState(() => !!kept && hydrating && !loaded)
    // Offline too: the service worker keeps every chunk of the build, so the piece usually
    // loads; a failure is shown, and tried again when the device comes back online.
    useEffect(() => {
      if (component) return
      let live = true
      const begin = () =>
        start().then(
          // In a transition React renders the piece in slices that yield to the browser, not in
          // one long task on a slow phone.
          (current) => live && startTransition(() => setComponent({ current })),
          () => live && setFailed(true),
        )
      const cancel = idle
        ? afterSettled(queryClient, () => void begin())
        : (void begin(), undefined)
      return () => {
        live = false
        cancel?.()
      }
    }, [component, online, queryClient])
    if (component) return <component.current {...props} />
    const shown = placeholder(failed ? 'failed' : 'loading')
    if (keep && kept && !(failed && shown)) {
      const Kept = kept
      // React leaves an element's content alone where it sets it as HTML, and sets it again
      // only for another object: this one is always the same.
      return <Kept dangerouslySetInnerHTML={AS_SERVED} suppressHydrationWarning />
    }
    return shown
  }
  LazyPiece.serve = async () => {
    loaded ??= await load()
  }
  return LazyPiece
}
