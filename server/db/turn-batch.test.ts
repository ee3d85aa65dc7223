import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { TurnBatch } from './turn-batch'

/* The calls of a turn, run together (db/turn-batch.ts). */

/** A run that records what it got and finishes when told to. */
function recorder<T>() {
  const runs: T[][] = []
  const finish: (() => void)[] = []
  const run = (items: T[]) => {
    runs.push(items)
    return new Promise<string[]>((resolve) =>
      finish.push(() => resolve(items.map((item) => `done ${String(item)}`))),
    )
  }
  return { runs, finish, run }
}

describe('TurnBatch', () => {
  it('runs the calls of one turn together and answers each with its own result', async () => {
    const { runs, finish, run } = recorder<string>()
    const batch = new TurnBatch(run)
    const answers = Promise.all(['a', 'b', 'c'].map((item) => batch.add(item)))
    await nextTurn()
    expect(runs).toEqual([['a', 'b', 'c']])
    finish[0]!()
    expect(await answers).toEqual(['done a', 'done b', 'done c'])
  })

  it('with maxRuns 1, calls made during a run wait and go together in the next', async () => {
    const { runs, finish, run } = recorder<string>()
    const batch = new TurnBatch(run, { maxRuns: 1 })
    const first = batch.add('a')
    await nextTurn()
    const later = [batch.add('b'), batch.add('c')]
    await nextTurn()
    const laterStill = batch.add('d')
    await nextTurn()
    expect(runs).toEqual([['a']])
    finish[0]!()
    expect(await first).toBe('done a')
    await nextTurn()
    expect(runs).toEqual([['a'], ['b', 'c', 'd']])
    finish[1]!()
    expect(await Promise.all([...later, laterStill])).toEqual(['done b', 'done c', 'done d'])
  })

  it('gives each caller of a failed run the error, and runs the next calls anyway', async () => {
    let calls = 0
    const batch = new TurnBatch<string, string>(
      async (items) => {
        if (calls++ === 0) throw new Error('connection lost')
        return items
      },
      { maxRuns: 1 },
    )
    const failed = [batch.add('a'), batch.add('b')].map((p) => p.catch((err: Error) => err.message))
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost'])
    expect(await batch.add('c')).toBe('c')
  })
})
