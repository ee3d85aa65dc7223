import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, waitForServer } from '../../scripts/lib/server'

/** Server tests that run `server/main.ts` as its own process, as `npm run serve` does. */

const ROOT = join(import.meta.dirname, '..', '..')

export interface ServerProcess {
  child: ChildProcess
  url: string
  exited: Promise<number | null>
  /** SIGKILL to the server's own process (under a wrapper such as strace: the wrapper's child). */
  kill(): void
}

/**
 * `server/main.ts` in its own Node process (tsx as a loader: one process to kill) on a free
 * port, in test mode with the demo catalogue and silent logs unless `env` says otherwise;
 * `wrap` runs it under another command (strace, say). Resolves once it answers.
 */
export async function startServer(
  env: Record<string, string>,
  { wrap = [] }: { wrap?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort()
  const [command, ...args] = [...wrap, process.execPath, '--import', 'tsx', 'server/main.ts']
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'test',
      // The orders buy from the demo catalogue.
      DEMO: '1',
      LOG_LEVEL: 'silent',
      DIST_DIR: join(ROOT, 'no-dist-in-tests'),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = `http://127.0.0.1:${port}`
  await waitForServer(child, url)
  const kill = () => {
    if (wrap.length === 0) {
      child.kill('SIGKILL')
      return
    }
    // The wrapper's only child is the server (tsx runs inside it); the wrapper ends when it does.
    const pid = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()
    process.kill(Number(pid.split(/\s+/)[0]), 'SIGKILL')
  }
  return { child, url, exited, kill }
}
