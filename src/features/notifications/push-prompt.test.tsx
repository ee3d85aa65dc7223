import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { pushConfigQuery } from '../../pwa/push'
import { PushPrompt } from './push-prompt'
import { TEST_PUSH_CONFIG as CONFIG } from '../../test/push-config'

/** A browser that can take push, its permission as given, and a store with push settings. */
function browser(permission: { current: NotificationPermission }) {
  vi.stubGlobal('Notification', {
    get permission() {
      return permission.current
    },
  })
  vi.stubGlobal('PushManager', function PushManager() {})
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} })
  const client = new QueryClient()
  client.setQueryData(pushConfigQuery().queryKey, CONFIG)
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  const page = (sort: string) => (
    <QueryClientProvider client={client}>
      <I18nProvider i18n={i18n}>
        <p>{sort}</p>
        <PushPrompt />
      </I18nProvider>
    </QueryClientProvider>
  )
  const { rerender } = render(page('newest'))
  return { renderAgain: () => rerender(page('oldest')) }
}

describe('the push prompt', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('keeps its offer when the permission is given elsewhere while it is on screen', () => {
    const permission = { current: 'default' as NotificationPermission }
    const { renderAgain } = browser(permission)
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).not.toBeNull()
    // Granted from the browser's site settings, then the page renders again.
    permission.current = 'granted'
    act(renderAgain)
    expect(screen.getByText('oldest')).toBeDefined()
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).not.toBeNull()
  })

  it('shows nothing where push is already on', () => {
    browser({ current: 'granted' })
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull()
  })
})
