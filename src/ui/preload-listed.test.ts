import { afterEach, describe, expect, it } from 'vitest'
import { EARLY_MODULES_ID } from '../api/early-replies'
import { preloadListed } from './preload-listed'

/** The build's list in the page, as index.html carries it. */
function listInPage(text: string) {
  const list = document.createElement('script')
  list.type = 'application/json'
  list.id = EARLY_MODULES_ID
  list.textContent = text
  document.head.append(list)
}

const links = () =>
  [...document.head.querySelectorAll('link')].map(
    (link) => `${link.rel} ${link.getAttribute('href')} ${link.getAttribute('crossorigin')}`,
  )

afterEach(() => document.head.replaceChildren())

describe('preloadListed', () => {
  it('links the listed files a few a task, as Vite’s loader links them', async () => {
    const files = ['/assets/a.js', '/assets/b.js', '/assets/c.js', '/assets/d.js', '/assets/e.js']
    listInPage(JSON.stringify({ 'order-form': files, other: ['/assets/z.js'] }))
    const done = preloadListed('order-form')
    // Nothing in the task that asked: it may be the one hydrating the page.
    expect(links()).toEqual([])
    await new Promise((resolve) => setTimeout(resolve))
    expect(links().length).toBeGreaterThan(0)
    expect(links().length).toBeLessThan(files.length)
    await done
    expect(links()).toEqual(files.map((file) => `modulepreload ${file} `))
  })

  it('leaves alone what is linked already, and resolves once the styles it links have loaded', async () => {
    listInPage(JSON.stringify({ 'order-form': ['/assets/a.js', '/assets/form.css'] }))
    const linked = document.createElement('link')
    linked.rel = 'modulepreload'
    linked.href = '/assets/a.js'
    document.head.append(linked)
    // The style sheet's load held back: its events stop on their way to the link.
    let held = true
    const hold = (event: Event) => held && event.stopImmediatePropagation()
    for (const type of ['load', 'error']) document.addEventListener(type, hold, { capture: true })
    let resolved = false
    const done = preloadListed('order-form').then(() => (resolved = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(links()).toEqual(['modulepreload /assets/a.js null', 'stylesheet /assets/form.css '])
    expect(resolved).toBe(false)
    held = false
    document.head.querySelector('link[rel=stylesheet]')!.dispatchEvent(new Event('load'))
    await done
    for (const type of ['load', 'error'])
      document.removeEventListener(type, hold, { capture: true })
  })

  it('links nothing without the list, or with a list it cannot read', async () => {
    await preloadListed('order-form')
    expect(links()).toEqual([])
    listInPage('{"order-form": [')
    await preloadListed('order-form')
    document.head.replaceChildren()
    listInPage(JSON.stringify({ other: ['/assets/z.js'] }))
    await preloadListed('order-form')
    expect(links()).toEqual([])
  })
})
