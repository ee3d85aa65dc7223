import { describe, expect, it, vi } from 'vitest'
import { useEffect, useState } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { RegisterSWOptions } from 'vite-plugin-pwa/types'
import { UpdatePrompt } from './update-prompt'
import { applyUpdate, registerServiceWorker } from './service-worker'

// The worker's registration as vite-plugin-pwa gives it: what it was asked to call back, and
// the update it hands out.
const registered: RegisterSWOptions[] = []
const update = vi.fn(() => Promise.resolve())
vi.mock('virtual:pwa-register', () => ({
  registerSW: (options: RegisterSWOptions) => {
    registered.push(options)
    return update
  },
}))

/**
 * The shell's part (src/app/shell.tsx): it registers the worker, and shows the prompt while a
 * release waits.
 */
function Shell() {
  const [waiting, setWaiting] = useState(false)
  useEffect(() => registerServiceWorker(() => setWaiting(true)), [])
  return waiting ? <UpdatePrompt onLater={() => setWaiting(false)} /> : <p>page</p>
}

function show() {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
  return render(
    <I18nProvider i18n={i18n}>
      <form>
        <input aria-label="Player ID" />
      </form>
      <Shell />
    </I18nProvider>,
  )
}

describe('the update prompt', () => {
  it('registers the worker once, and shows nothing until a new release waits', async () => {
    show().unmount()
    show()
    expect(registered).toHaveLength(1)
    expect(screen.queryByRole('alertdialog')).toBeNull()

    act(() => registered[0]!.onNeedRefresh!())
    expect(screen.getByRole('alertdialog').textContent).toContain(
      'A new version of the store is available.',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }))
    await vi.waitFor(() => expect(update).toHaveBeenCalledWith(true))
    await applyUpdate()
    expect(update).toHaveBeenCalledTimes(2)
  })

  it('asks again before a reload would lose what a form holds, and "Later" puts it away', () => {
    show()
    fireEvent.change(screen.getByRole('textbox', { name: 'Player ID' }), {
      target: { value: '5123' },
    })
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {})
    // The new release took control while the customer typed: the page is not reloaded.
    act(() => registered[0]!.onNeedReload!())
    expect(reload).not.toHaveBeenCalled()
    update.mockClear()
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }))
    expect(screen.getByRole('alertdialog').textContent).toContain(
      'You have unsaved input on this page. Reload anyway?',
    )
    expect(update).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Later' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Player ID' }).value).toBe('5123')
  })
})
