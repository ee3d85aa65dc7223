import type { Context } from 'hono'
import { routePath } from 'hono/route'

const OWN_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

/**
 * The metrics' `route` label: the API route's pattern (`/api/orders/:id`), never the path
 * itself, so the number of series stays small whatever is asked; `unmatched` for an API path
 * no route has, and `static` for the storefront's pages and files.
 */
export function routeLabel(c: Context): string {
  const path = c.req.path
  if (OWN_PATHS.has(path)) return path
  if (path !== '/api' && !path.startsWith('/api/')) return 'static'
  // After the handlers ran, the index is the one that answered.
  const pattern = routePath(c)
  return pattern.startsWith('/api/') && !pattern.endsWith('*') ? pattern : 'unmatched'
}
