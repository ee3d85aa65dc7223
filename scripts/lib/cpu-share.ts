/**
 * A slow hour on demand: Chrome run on a share of one CPU, as a control group's quota of every
 * 10 ms period (Linux, as root; cgroup v1 or v2). Every process of that Chrome shares it, as
 * they share a busy machine's CPU with its neighbours. Returns the path of a launcher that
 * starts Chrome inside the group, and a function that removes the group once Chrome has gone.
 */
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PERIOD_US = 10_000

/** A path as one word of a shell command. */
const quoted = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`

export function chromeOnCpuShare(
  chromePath: string,
  share: number,
): { path: string; remove: () => Promise<void> } {
  if (!(share > 0 && share <= 1)) throw new Error(`a CPU share is above 0 and at most 1: ${share}`)
  const quota = String(Math.round(share * PERIOD_US))
  const name = `store-bench-${process.pid}`
  const v1 = '/sys/fs/cgroup/cpu'
  let group: string
  if (existsSync(join(v1, 'cpu.cfs_quota_us'))) {
    group = join(v1, name)
    mkdirSync(group)
    writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US))
    writeFileSync(join(group, 'cpu.cfs_quota_us'), quota)
  } else {
    group = join('/sys/fs/cgroup', name)
    mkdirSync(group)
    writeFileSync(join(group, 'cpu.max'), `${quota} ${PERIOD_US}`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-chrome-'))
  const path = join(dir, 'chrome')
  writeFileSync(
    path,
    `#!/bin/sh\necho $$ > ${quoted(join(group, 'cgroup.procs'))}\nexec ${quoted(chromePath)} "$@"\n`,
    { mode: 0o755 },
  )
  return {
    path,
    remove: async () => {
      rmSync(dir, { recursive: true, force: true })
      // A Chrome just killed may take a moment to leave the group.
      for (let attempt = 0; ; attempt++)
        try {
          return rmdirSync(group)
        } catch (error) {
          if (attempt === 20) throw error
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
    },
  }
}
