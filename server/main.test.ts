import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, get as httpGet } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
/** Production refuses to start without them. */
const TOKEN_SECRET = 'a-test-secret-of-at-least-32-characters'
const PUBLIC_URL = 'https://shop.example.com'
const tmp = mkdtempSync(join(tmpdir(), 'store-main-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

interface Started {
  child: ChildProcess
  lines: Record<string, unknown>[]
  exited: Promise<number | null>
  stderr: () => string
  /** Everything written on stdout, as written. */
  stdout: () => string
}

/**
 * Starts `server/main.ts` the way `npm run serve` does (or `server/start-demo.ts`, as
 * `npm start` does), under the Node running the tests.
 */
function start(env: Record<string, string>, entry = 'server/main.ts'): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: Record<string, unknown>[] = []
  let out = ''
  let err = ''
  let all = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    all += chunk.toString()
    out += chunk.toString()
    let nl
    while ((nl = out.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(out.slice(0, nl)) as Record<string, unknown>)
      out = out.slice(nl + 1)
    }
  })
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, lines, exited, stderr: () => err, stdout: () => all }
}

async function waitFor(lines: Record<string, unknown>[], msg: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    const line = lines.find((l) => l.msg === msg)
    if (line) return line
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`no "${msg}" log line; got ${JSON.stringify(lines)}`)
}

describe('server process', () => {
  it('migrates, serves, logs JSON lines and stops cleanly on SIGTERM', async () => {
    const server = start({
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: join(tmp, 'data', 'store.db'),
      DIST_DIR: join(tmp, 'no-dist'),
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      TOKEN_SECRET,
      PUBLIC_URL,
    })
    try {
      const listening = await waitFor(server.lines, 'listening')
      const url = String(listening.url)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)

      const res = await fetch(new URL('api/website/info', url))
      expect(res.status).toBe(200)
      const requestLine = await waitFor(server.lines, 'request')
      expect(requestLine).toMatchObject({
        level: 'info',
        method: 'GET',
        path: '/api/website/info',
        status: 200,
      })
      expect(typeof requestLine.ms).toBe('number')
      expect(requestLine.requestId).toBe(res.headers.get('x-request-id'))

      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      expect(server.lines.at(-1)?.msg).toBe('stopped')
      expect(server.stderr()).toBe('')
    } finally {
      server.child.kill('SIGKILL')
    }
  })

  it('logs the request id on every line of a request, and no password, code or token', async () => {
    const dbPath = join(tmp, 'secrets', 'store.db')
    const METRICS_TOKEN = 'a-metrics-token-of-at-least-32-chars'
    const server = start({
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: dbPath,
      DIST_DIR: join(tmp, 'no-dist'),
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      TOKEN_SECRET,
      PUBLIC_URL,
      METRICS_TOKEN,
      PASSWORD_HASH_COST: '15',
      CODE_RESEND_SECONDS: '1',
    })
    try {
      const url = String((await waitFor(server.lines, 'listening')).url)
      const post = async (path: string, fields: Record<string, string>, token?: string) => {
        const body = new FormData()
        for (const [k, value] of Object.entries(fields)) body.append(k, value)
        const headers: Record<string, string> = { 'x-requested-with': 'test' }
        if (token) headers.authorization = `Bearer ${token}`
        const res = await fetch(new URL(`api/${path}`, url), { method: 'POST', body, headers })
        expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200)
        return res
      }
      // What the local outbox kept (production: the table only, never the log).
      const sent = (to: string) => {
        const db = new DatabaseSync(dbPath, { readOnly: true })
        try {
          return db
            .prepare('select code, body from outbox where recipient = ? order by id desc limit 1')
            .get(to) as { code: string; body: string }
        } finally {
          db.close()
        }
      }
      const user = {
        username: 'secretive',
        phone_number: '+96171999001',
        email: 'secretive@example.com',
        password: 'first-Secret-pass-1',
      }
      const signup = await post('signup?validate=1', user)
      const signupCode = sent(user.phone_number).code
      const { token: session } = (await (
        await post('signup?auth=1', { ...user, verification_code: signupCode })
      ).json()) as { token: string }
      expect(
        (
          await fetch(new URL('api/profile', url), {
            headers: { authorization: `Bearer ${session}` },
          })
        ).status,
      ).toBe(200)

      await post('send/verification-code', { email: user.email })
      const reset = sent(user.email)
      const linkToken = /reset-password\/([\w-]{43})/.exec(reset.body)![1]!
      const newPassword = 'second-Secret-pass-2'
      await post('reset-password-link', {
        token: linkToken,
        password: newPassword,
        password_confirmation: newPassword,
      })
      await new Promise((r) => setTimeout(r, 1100))
      await post('login?check=1', { username: user.username, password: newPassword })
      const loginCode = sent(user.phone_number).code
      const { token: session2 } = (await (
        await post('login?auth=1', {
          username: user.username,
          password: newPassword,
          verification_code: loginCode,
        })
      ).json()) as { token: string }
      const scraped = await fetch(new URL('metrics', url), {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
      expect(scraped.status).toBe(200)

      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      const log = server.stdout() + server.stderr()

      // The code kept for the sign-up was logged with the sign-up's request id.
      const id = signup.headers.get('x-request-id')
      const kept = server.lines.find((l) => l.msg === 'code kept in the local outbox')
      expect(kept?.requestId).toBe(id)
      expect(server.lines.find((l) => l.msg === 'request' && l.requestId === id)).toMatchObject({
        path: '/api/signup',
      })
      for (const line of server.lines.filter((l) => l.msg === 'request'))
        expect(typeof line.requestId).toBe('string')

      for (const secret of [
        user.password,
        newPassword,
        session,
        session2,
        linkToken,
        TOKEN_SECRET,
        METRICS_TOKEN,
      ])
        expect(log.includes(secret), `the log shows ${secret}`).toBe(false)
      for (const code of [signupCode, reset.code, loginCode]) {
        expect(code).toMatch(/^\d{4}$/)
        // A code as a value or in a sentence (a bare four digits also occur in timestamps).
        for (const written of [`"${code}"`, ` ${code}`, `=${code}`])
          expect(log.includes(written), `the log shows the code ${code}`).toBe(false)
      }
    } finally {
      server.child.kill('SIGKILL')
    }
  })

  it('keeps an idle connection open longer than a client waits between two requests', async () => {
    const server = start({
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: join(tmp, 'idle', 'store.db'),
      DIST_DIR: join(tmp, 'no-dist'),
      NODE_ENV: 'production',
      TOKEN_SECRET,
      PUBLIC_URL,
    })
    const agent = new Agent({ keepAlive: true })
    const get = (url: URL) =>
      new Promise<{ status?: number; reused: boolean }>((resolve, reject) => {
        const req = httpGet(url, { agent }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }))
        })
        req.on('error', reject)
      })
    try {
      const url = new URL(
        'api/website/info',
        String((await waitFor(server.lines, 'listening')).url),
      )
      expect(await get(url)).toEqual({ status: 200, reused: false })
      // Past Node's default of 5 s, which made a client's next request meet a closing socket.
      await new Promise((resolve) => setTimeout(resolve, 6_000))
      expect(await get(url)).toEqual({ status: 200, reused: true })
    } finally {
      agent.destroy()
      server.child.kill('SIGKILL')
    }
  }, 20_000)

  it('in production, a new database gets no demo account and no /api/dev route', async () => {
    const dbPath = join(tmp, 'prod', 'store.db')
    // NODE_ENV is left unset: production is the default.
    const server = start({
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: dbPath,
      DIST_DIR: join(tmp, 'no-dist'),
      LOG_LEVEL: 'info',
      TOKEN_SECRET,
      PUBLIC_URL,
    })
    try {
      const url = String((await waitFor(server.lines, 'listening')).url)
      expect(server.lines.some((l) => l.msg === 'demo content loaded into the new database')).toBe(
        false,
      )
      for (const path of ['api/dev/outbox', 'api/dev/outbox?to=%2B96170000001']) {
        expect((await fetch(new URL(path, url))).status, path).toBe(404)
      }
      const login = new FormData()
      login.append('username', 'demo')
      login.append('password', 'demo-pass-1')
      const res = await fetch(new URL('api/login?check=1', url), {
        method: 'POST',
        body: login,
        headers: { origin: new URL(url).origin },
      })
      expect(res.status).toBe(422)
      const products = (await (await fetch(new URL('api/products', url))).json()) as {
        data: unknown[]
      }
      expect(products.data).toEqual([])
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    } finally {
      server.child.kill('SIGKILL')
    }
    const db = new DatabaseSync(dbPath)
    try {
      expect(db.prepare('select count(*) as n from users').get()).toEqual({ n: 0 })
    } finally {
      db.close()
    }
  })

  it('refuses to start in production without TOKEN_SECRET, and says why', async () => {
    const server = start({ NODE_ENV: 'production', SQLITE_PATH: join(tmp, 'no-secret.db') })
    expect(await server.exited).toBe(1)
    expect(server.stderr()).toContain('TOKEN_SECRET: required in production')
    expect(server.stderr()).toContain('PUBLIC_URL: required in production')
  })

  it('serves /sw.js within a second while 40 sign-ins of unknown users hash at full cost', async () => {
    const dist = join(tmp, 'dist-sw')
    mkdirSync(dist, { recursive: true })
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})\n')
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Store</title>\n')
    const server = start({
      PORT: '0',
      HOST: '127.0.0.1',
      SQLITE_PATH: join(tmp, 'sw', 'store.db'),
      DIST_DIR: dist,
      NODE_ENV: 'production',
      TOKEN_SECRET,
      PUBLIC_URL,
      // OWASP's cost, as in production: 128 MiB and a good part of a second per hash.
      PASSWORD_HASH_COST: '17',
    })
    try {
      const url = String((await waitFor(server.lines, 'listening')).url)
      const origin = new URL(url).origin
      const signIns = Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const form = new FormData()
          form.append('username', `nobody_${i}_${Date.now()}`)
          form.append('password', 'not-the-password')
          const res = await fetch(new URL('api/login?check=1', url), {
            method: 'POST',
            body: form,
            headers: { origin },
          })
          return res.status
        }),
      )
      let done = false
      void signIns.finally(() => (done = true))
      const waits: number[] = []
      while (!done) {
        const started = performance.now()
        const res = await fetch(new URL('sw.js', url))
        await res.text()
        expect(res.status).toBe(200)
        waits.push(performance.now() - started)
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(await signIns).toEqual(Array(40).fill(422))
      expect(waits.length).toBeGreaterThan(5)
      expect(Math.max(...waits)).toBeLessThan(1000)
    } finally {
      server.child.kill('SIGKILL')
    }
  }, 120_000)

  it('refuses DEMO or DEV_OUTBOX in production', async () => {
    for (const name of ['DEMO', 'DEV_OUTBOX']) {
      const server = start({ [name]: '1', NODE_ENV: 'production', SQLITE_PATH: join(tmp, 'x.db') })
      expect(await server.exited).toBe(1)
      expect(server.stderr()).toContain(`${name}: never with NODE_ENV=production`)
    }
  })

  it('npm start gives the demo, with its codes in the outbox, on the loopback address', async () => {
    const server = start(
      { PORT: '0', SQLITE_PATH: join(tmp, 'demo', 'store.db'), DIST_DIR: join(tmp, 'no-dist') },
      'server/start-demo.ts',
    )
    try {
      const url = String((await waitFor(server.lines, 'listening')).url)
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      expect(server.lines.some((l) => l.msg === 'demo content loaded into the new database')).toBe(
        true,
      )
      const login = new FormData()
      login.append('username', 'demo')
      login.append('password', 'demo-pass-1')
      const res = await fetch(new URL('api/login?check=1', url), {
        method: 'POST',
        body: login,
        headers: { origin: new URL(url).origin },
      })
      expect(res.status).toBe(200)
      const outbox = await fetch(new URL('api/dev/outbox?to=%2B96170000001', url))
      expect(outbox.status).toBe(200)
      const { data } = (await outbox.json()) as { data: { code: string }[] }
      expect(data[0]?.code).toMatch(/^\d{4}$/)
    } finally {
      server.child.kill('SIGKILL')
    }
  })

  it('exits with 1 and names the setting when the configuration is bad', async () => {
    const server = start({ PORT: 'eighty', SQLITE_PATH: join(tmp, 'bad.db') })
    expect(await server.exited).toBe(1)
    expect(server.stderr()).toContain('PORT')
    expect(server.stderr()).toContain('.env.example')
  })
})
