import { describe, expect, it } from 'vitest'
import { pageMainThread, taskTimes, type TraceEvent } from './trace'

const thread = (pid: number, tid: number, name: string): TraceEvent => ({
  name: 'thread_name',
  cat: '__metadata',
  ph: 'M',
  pid,
  tid,
  ts: 0,
  args: { name },
})
const task = (ts: number, cpuMs: number, pid = 1): TraceEvent => ({
  name: 'RunTask',
  cat: 'toplevel',
  ph: 'X',
  pid,
  tid: 1,
  ts,
  dur: cpuMs * 1000,
  tdur: cpuMs * 1000,
})
const event = (name: string, ts: number, url = ''): TraceEvent => ({
  name,
  cat: 'devtools.timeline',
  ph: 'X',
  pid: 1,
  tid: 1,
  ts,
  dur: 100,
  args: { beginData: { url } },
})

describe("the page's main thread", () => {
  it('counts from the task that commits the navigation to the page', () => {
    const events = [
      thread(1, 1, 'CrRendererMain'),
      // The blank page: committed and parsed, then its work while the page's HTML is on its way.
      task(1_000, 5),
      event('DocumentLoader::CommitNavigation', 1_100),
      event('ParseHTML', 1_300),
      task(20_000, 30),
      task(60_000, 8),
      event('DocumentLoader::CommitNavigation', 60_500),
      task(80_000, 4),
      event('ParseHTML', 80_100, 'http://127.0.0.1:4510/'),
    ]
    expect(taskTimes(pageMainThread(events))).toEqual([8, 4])
  })

  it('picks the busiest renderer and keeps every task when no navigation is in the trace', () => {
    const events = [
      thread(1, 1, 'CrRendererMain'),
      thread(2, 1, 'CrRendererMain'),
      task(1_000, 2),
      task(1_000, 3, 2),
      task(9_000, 4, 2),
    ]
    expect(taskTimes(pageMainThread(events))).toEqual([3, 4])
  })
})
