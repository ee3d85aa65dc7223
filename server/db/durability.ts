import { AsyncLocalStorage } from 'node:async_hooks'

/*
 * When a reply may go out: after every commit its reads could have seen is on disk (SQLite with
 * synchronous FULL flushes the WAL after the commit, db/sqlite.ts). docs/performance.md,
 * Durability.
 */

/**
 * A transaction committed inside `laterDurability.run(waiter, ...)` returns once committed, and
 * leaves in `waiter.durable` the promise of its flush (FULL), for the caller to await before it
 * answers anyone (db/group-commit.ts).
 */
export const laterDurability = new AsyncLocalStorage<{ durable?: Promise<void> }>()

interface ReplyScope {
  durable?: Promise<void>
  answered?: boolean
}

const replyAfterReads = new AsyncLocalStorage<ReplyScope>()

function bothSettled(earlier: Promise<void> | undefined, flush: Promise<void>) {
  const both = earlier ? Promise.all([earlier, flush]).then(() => {}) : flush
  // Awaited when the request answers; until then a failed flush is no unhandled rejection.
  both.catch(() => {})
  return both
}

/**
 * Runs a request's handler, then waits until every commit its reads could have seen is on
 * disk, before the reply goes out (docs/performance.md, Durability). The reads themselves do
 * not wait for the flush, so a busy store's requests do not queue behind it; a request that
 * writes waits for its own commit's flush anyway, which covers everything it read before (the
 * WAL is written in order). Reads outside a request (the workers) wait before they read.
 */
export async function durableReads(handler: () => Promise<void>): Promise<void> {
  const scope: ReplyScope = {}
  try {
    await replyAfterReads.run(scope, handler)
  } finally {
    // A body streamed after this point reads as the workers do.
    scope.answered = true
  }
  await scope.durable
}

/**
 * Work shared by several requests (db/turn-batch.ts): `fn` runs with a scope of its own, and
 * its reads' flush comes back beside its result, for each request to join (joinReads).
 */
export async function sharedReads<R>(
  fn: () => Promise<R>,
): Promise<{ result: R; durable: Promise<void> | undefined }> {
  const scope: ReplyScope = {}
  const result = await replyAfterReads.run(scope, fn)
  scope.answered = true
  return { result, durable: scope.durable }
}

/**
 * A request's reply waits for `durable` too; outside a request, the caller waits for the
 * promise this returns before it shows what was read.
 */
export function joinReads(durable: Promise<void> | undefined): Promise<void> | undefined {
  const reply = replyAfterReads.getStore()
  if (!durable || !reply || reply.answered) return durable
  reply.durable = bothSettled(reply.durable, durable)
  return undefined
}
