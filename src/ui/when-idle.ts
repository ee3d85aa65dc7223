import type { QueryClient } from '@tanstack/react-query'

/**
 * Runs `task` once the browser has nothing more urgent to do (at the latest after `timeoutMs`):
 * work the first screen does not need stays out of the tasks that show and hydrate it, where a
 * slow phone would pay for it as one long task (docs/architecture.md, The first load).
 * Returns a function that cancels it.
 */
export function whenIdle(task: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: timeoutMs })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(task, 1)
  return () => clearTimeout(id)
}

/**
 * Ends the task the work so far ran in: the browser may paint and answer a tap before the next
 * step, and no step adds to another's long task on a slow phone.
 */
export function nextTask(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } }
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve))
}

/**
 * Runs `task` after the next frame has been shown: the frame just painted reaches the screen a
 * frame later, and what starts before that still competes with it.
 */
function afterNextFrame(task: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') return whenIdle(task)
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => (timer = setTimeout(task)))
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/**
 * Runs `task` once the page's replies have come (no query fetching; at the latest after
 * `capMs`), the browser is idle and the page so far is on the screen: a page whose content
 * waits for its reply (a signed-in customer's orders) shows it before the pieces that can wait
 * take the connection. Returns a function that cancels it.
 */
export function whenSettled(queryClient: QueryClient, task: () => void, capMs = 3000): () => void {
  let cancelIdle: (() => void) | undefined
  let cancelFrame: (() => void) | undefined
  const idle = () => {
    stop()
    cancelIdle ??= whenIdle(() => (cancelFrame = afterNextFrame(task)))
  }
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (!queryClient.isFetching()) idle()
  })
  const cap = setTimeout(idle, capMs)
  function stop() {
    unsubscribe()
    clearTimeout(cap)
  }
  if (!queryClient.isFetching()) idle()
  return () => {
    stop()
    cancelIdle?.()
    cancelFrame?.()
  }
}

let firstSettled: Promise<void> | undefined

/**
 * Runs `task` once the page first opened has loaded (the window's load) and settled
 * (`whenSettled`), and then once the page shown when it is asked has settled: a piece the
 * first screen can do without, however soon or late it is shown (the install button comes with
 * the browser's offer, which may come as the page starts), waits for that page. Returns a
 * function that cancels it.
 */
export function afterSettled(queryClient: QueryClient, task: () => void): () => void {
  firstSettled ??= new Promise((resolve) => {
    const start = () => void whenSettled(queryClient, resolve)
    if (document.readyState === 'complete') start()
    else window.addEventListener('load', start, { once: true })
  })
  let cancel: (() => void) | undefined
  let live = true
  void firstSettled.then(() => {
    if (live) cancel = whenSettled(queryClient, task)
  })
  return () => {
    live = false
    cancel?.()
  }
}
