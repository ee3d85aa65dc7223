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
})
