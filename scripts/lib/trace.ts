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
  args?: { name?: string; data?: { url?: string; documentLoaderURL?: string } }
}
