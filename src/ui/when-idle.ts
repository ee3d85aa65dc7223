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
