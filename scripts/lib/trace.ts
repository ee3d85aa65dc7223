/** One event of a Chrome trace (the fields the benchmarks read). */
export interface TraceEvent {
  name: string
  cat: string
  ph: string
  pid: number
  tid: number
  ts: number
  /** Wall time and the thread's CPU time, in µs, of a complete (`X`) event. */
  dur?: number
  tdur?: number
  args?: {
    name?: string
    data?: { url?: string; documentLoaderURL?: string }
    beginData?: { url?: string }
  }
}

/**
 * The complete (`X`) events of the page's main thread: of the renderers' main threads, the one
 * whose tasks took the most CPU time (another renderer may be a blank page or a worker's host),
 * leaving out Chrome's own pages (`chrome://`: desktop Chrome's address-bar popup is one, made
 * as the browser starts, and it can be busier than the page), from the task that commits the
 * page's navigation on.
 */
export function pageMainThread(events: TraceEvent[]): TraceEvent[] {
  const chromePages = new Set(
    events
      .filter((e) => {
        const url = e.args?.data?.url ?? e.args?.data?.documentLoaderURL
        return typeof url === 'string' && url.startsWith('chrome://')
      })
      .map((e) => e.pid),
  )
  const mains = new Set(
    events
      .filter(
        (e) =>
          e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && !chromePages.has(e.pid),
      )
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const threads = new Map<string, TraceEvent[]>()
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`
    if (e.ph !== 'X' || !mains.has(key)) continue
    const list = threads.get(key)
    if (list) list.push(e)
    else threads.set(key, [e])
  }
  let busiest: TraceEvent[] = []
  let most = -1
  for (const list of threads.values()) {
    const from = pageCommit(list)
    const page = list.filter((e) => e.ts >= from)
    const cpu = taskTimes(page).reduce((sum, ms) => sum + ms, 0)
    if (cpu > most) [busiest, most] = [page, cpu]
  }
  return busiest
}

/**
 * When the page's own work starts on a renderer's main thread: the task that commits the
 * navigation to the page whose HTML it parses. Until then the thread still holds the blank page
 * the tool opened, and what it does there is the tool's (Lighthouse's DevTools setup walks the
 * blank page's heap: 5 to 47 ms of CPU while the page's HTML is on its way).
 */
function pageCommit(thread: TraceEvent[]): number {
  const parse = thread.find(
    (e) => e.name === 'ParseHTML' && /^https?:/.test(e.args?.beginData?.url ?? ''),
  )
  if (!parse) return -Infinity
  const commit = thread.findLast(
    (e) => e.name === 'DocumentLoader::CommitNavigation' && e.ts <= parse.ts,
  )
  const task =
    commit &&
    thread.find((e) => e.name === 'RunTask' && e.ts <= commit.ts && commit.ts < e.ts + (e.dur ?? 0))
  return (task ?? commit ?? parse).ts
}

/** Each task's CPU time on a thread, in ms. */
export function taskTimes(events: TraceEvent[]): number[] {
  return events.filter((e) => e.name === 'RunTask').map((e) => (e.tdur ?? 0) / 1000)
}
