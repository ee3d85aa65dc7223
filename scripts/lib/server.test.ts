import { execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort, portFree, startServer } from './server'

describe('startServer', () => {
  it('refuses a port another server listens on, instead of measuring that server', async () => {
    const port = await freePort()
    const other = createServer()
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve))
    try {
      expect(await portFree(port)).toBe(false)
      await expect(startServer(port)).rejects.toThrow(`Port ${port} is in use`)
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
    expect(await portFree(port)).toBe(true)
  })

  it('stops a server that has already exited, so that the error that ended the run is printed', async () => {
    const server = await startServer(await freePort())
    // The server itself (tsx's child): tsx then exits with it.
    execFileSync('pkill', ['-KILL', '-P', String(server.pid)])
    // Gone, and its exit seen, before the benchmark stops it.
    const running = () => {
      try {
        return process.kill(server.pid!, 0)
      } catch {
        return false
      }
    }
    await expect.poll(running).toBe(false)
    await server.stop()
  }, 60_000)
})
