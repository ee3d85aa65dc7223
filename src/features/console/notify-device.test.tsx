import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { NotifyDevice } from './notify-device'
import { TEST_PUSH_CONFIG as CONFIG } from '../../test/push-config'

// Firebase as the browser would answer once it reached its servers: a token for this device.
vi.mock('firebase/app', () => ({ initializeApp: () => ({}), getApps: () => [] }))
vi.mock('firebase/messaging', () => ({
  getMessaging: () => ({}),
  getToken: () => Promise.resolve('operator-device-token'),
  deleteToken: () => Promise.resolve(true),
}))

/** What the browser answers to the permission request, and the calls made to the server. */
function device(answer: NotificationPermission) {
  const permission = { current: 'default' as NotificationPermission }
  vi.stubGlobal('Notification', {
    get permission() {
      return permission.current
    },
    requestPermission: () => Promise.resolve((permission.current = answer)),
  })
  vi.stubGlobal('PushManager', function PushManager() {})
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({}) },
  })
  const calls: { url: string; init?: RequestInit }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input)
      calls.push({ url, init })
      const body = url.includes('/push/config') ? { data: CONFIG } : { message: 'Saved.' }
      return Promise.resolve(Response.json(body))
    }),
  )
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <NotifyDevice />
      </I18nProvider>
    </QueryClientProvider>,
  )
  return () => calls.filter(({ url }) => url.includes('/admin/push-token'))
}

describe("the console's Notify this device", () => {
  beforeEach(() => vi.unstubAllGlobals())
  afterEach(() => vi.unstubAllGlobals())

  it("asks at the tap and gives this console session the device's token", async () => {
    const sent = device('granted')
    fireEvent.click(await screen.findByRole('button', { name: 'Notify this device' }))
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Notifications are on for this device.',
    )
    expect(sent()).toHaveLength(1)
    const init = sent()[0]!.init!
    expect(init.method).toBe('POST')
    expect((init.body as FormData).get('fcm_token')).toBe('operator-device-token')
    // The console's session is its cookie: no customer's token goes with it.
    expect(new Headers(init.headers).has('Authorization')).toBe(false)
  })

  it('says so when the operator refuses, and sends nothing', async () => {
    const sent = device('denied')
    fireEvent.click(await screen.findByRole('button', { name: 'Notify this device' }))
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      "Notifications are refused on this device: allow them in the browser's settings.",
    )
    expect(sent()).toHaveLength(0)
  })
})
