import { afterEach, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { GroupPage } from './group-page'
import { catalogueQueries } from './queries'

afterEach(() => vi.restoreAllMocks())

it('a group the device holds stays on screen when asking for it again fails', async () => {
  // Offline, no saved reply in the service worker: every ask fails.
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const query = catalogueQueries.group('en', 3)
  client.setQueryData(
    query.queryKey,
    {
      data: {
        id: 3,
        name: 'Gift cards',
        image: null,
        products: [{ id: 24, number: 3, name: 'iTunes', image: null, available: true }],
      },
    },
    // Saved a day ago: stale, so the page asks again.
    { updatedAt: Date.now() - 86_400_000 },
  )
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  render(
    <QueryClientProvider client={client}>
      <I18nProvider i18n={i18n}>
        <GroupPage id={3} />
      </I18nProvider>
    </QueryClientProvider>,
  )
  await waitFor(() => expect(client.getQueryState(query.queryKey)?.status).toBe('error'))
  expect(screen.getByRole('heading', { name: 'Gift cards' })).toBeDefined()
  expect(screen.getByRole('link', { name: /iTunes/ })).toBeDefined()
  expect(screen.queryByText(/not saved on this device/)).toBeNull()
})
