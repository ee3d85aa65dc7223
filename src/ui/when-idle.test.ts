import { QueryClient, queryOptions } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { whenSettled } from './when-idle'

/** The module anew: the first page's settling is kept in it. */
const fresh = async () => {
  vi.resetModules()
  return import('./when-idle')
}

afterEach(() => vi.useRealTimers())

const orders = (queryFn: () => Promise<string>) => queryOptions({ queryKey: ['orders'], queryFn })

/** A query whose reply comes when the test says. */
function pendingQuery(queryClient: QueryClient) {
  let answer!: (value: string) => void
  void queryClient.fetchQuery(orders(() => new Promise<string>((resolve) => (answer = resolve))))
  return (value: string) => answer(value)
}

describe('whenSettled', () => {
  it('waits for the page’s replies before it runs what can wait', async () => {
    const queryClient = new QueryClient()
    const answer = pendingQuery(queryClient)
    const task = vi.fn()
    whenSettled(queryClient, task)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(task).not.toHaveBeenCalled()
    answer('the list')
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1))
    expect(queryClient.getQueryData(orders(() => Promise.resolve('')).queryKey)).toBe('the list')
  })

  it('runs at once (when idle) with nothing to wait for, and once only', async () => {
    const queryClient = new QueryClient()
    const task = vi.fn()
    whenSettled(queryClient, task)
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1))
    await queryClient.fetchQuery(orders(() => Promise.resolve('again')))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(task).toHaveBeenCalledTimes(1)
  })

  it('does not wait past its cap for a reply that never comes', async () => {
    vi.useFakeTimers()
    const queryClient = new QueryClient()
    pendingQuery(queryClient)
    const task = vi.fn()
    whenSettled(queryClient, task, 3000)
    await vi.advanceTimersByTimeAsync(2900)
    expect(task).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1200)
    expect(task).toHaveBeenCalledTimes(1)
  })

  it('cancelled, never runs', async () => {
    const queryClient = new QueryClient()
    const answer = pendingQuery(queryClient)
    const task = vi.fn()
    whenSettled(queryClient, task)()
    answer('the list')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(task).not.toHaveBeenCalled()
  })
})

describe('afterSettled', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'readyState')
  })

  it('waits for the page to load, even with no reply to wait for', async () => {
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true })
    const { afterSettled } = await fresh()
    const task = vi.fn()
    afterSettled(new QueryClient(), task)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(task).not.toHaveBeenCalled()
    window.dispatchEvent(new Event('load'))
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1))
  })

  it('asked for after the first page settled, waits for the replies of the page then shown', async () => {
    const { afterSettled } = await fresh()
    const queryClient = new QueryClient()
    const first = vi.fn()
    afterSettled(queryClient, first)
    await vi.waitFor(() => expect(first).toHaveBeenCalledTimes(1))
    const answer = pendingQuery(queryClient)
    const later = vi.fn()
    afterSettled(queryClient, later)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(later).not.toHaveBeenCalled()
    answer('the list')
    await vi.waitFor(() => expect(later).toHaveBeenCalledTimes(1))
  })

  it('cancelled before the page settled, never runs', async () => {
    Object.defineProperty(document, 'readyState', { value: 'interactive', configurable: true })
    const { afterSettled } = await fresh()
    const task = vi.fn()
    afterSettled(new QueryClient(), task)()
    window.dispatchEvent(new Event('load'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(task).not.toHaveBeenCalled()
  })
})
