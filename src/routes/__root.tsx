import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext } from '@tanstack/react-router'
import { NotFound } from '../app/not-found'
import { wholeCatalogue } from '../i18n/locale'

export interface RouterContext {
  queryClient: QueryClient
  auth: { isSignedIn: () => boolean }
}

// The shell (src/app/shell.tsx) is around the router, not in it: home's first screen shows it
// before the router has loaded, and it stays as the router takes over.
export const Route = createRootRouteWithContext<RouterContext>()({
  // Home's first load has only its own messages: another page waits for the whole catalogue,
  // loaded along with its chunk. Offline without it, the page's own chunk says what failed,
  // and its texts follow once a later try (another page, a lazy piece) gets the catalogue.
  loader: ({ location }) =>
    location.pathname === '/' ? undefined : wholeCatalogue().catch(() => {}),
  notFoundComponent: NotFound,
})
