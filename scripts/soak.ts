/**
 * `npm run soak -- --minutes N [--rate R] [--users U]`: a day of traffic, compressed. Virtual
 * customers sign up and sign in with codes, browse in English and Arabic, top up (a USDT
 * request, then the operator's `payments:confirm`, as an approval), order, read their wallet
 * and notifications, at R requests a second in all (default 20) from U customers (default 20),
 * for N minutes (default 1). Then it checks: no 5xx, `wallet:audit` clean, the server's memory
 * (RSS at the start and the end, from /metrics), and prints p50/p99 per route. Exits 1 on a 5xx
 * or an audit problem. RSS is also sampled every 10 s: the highest of the run's first third
 * against the highest of its last tells growth from the garbage collector's sawtooth.
 *
 * Against a running store: SOAK_URL, with METRICS_TOKEN for its RSS and its database in
 * DATABASE_URL or SQLITE_PATH (or .env), as the operator commands read it: the codes are read
 * from its outbox table (a store without WhatsApp and SMTP), and the approvals and the audit
 * run there. Without SOAK_URL it starts its own store (the demo catalogue, limits raised for
 * one client address) on a new SQLite file, or on SOAK_DATABASE_URL (an empty PostgreSQL
 * database).
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runCli } from '../server/cli/run'
import { loadConfig, loadDotEnv } from '../server/config'
import { createDb } from '../server/db'
import { freePort, median, startServer } from './lib/server'

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    rate: { type: 'string', default: '20' },
    users: { type: 'string', default: '20' },
  },
})
const minutes = Number(values.minutes)
const rate = Number(values.rate)
const users = Number(values.users)
if (!(minutes > 0 && rate > 0 && Number.isInteger(users) && users > 0)) {
  console.error('--minutes and --rate must be positive numbers, --users a whole number')
  process.exit(2)
}

loadDotEnv()
const METRICS_TOKEN = process.env.METRICS_TOKEN || randomBytes(24).toString('hex')
let env: Record<string, string | undefined> = process.env
let base = process.env.SOAK_URL?.replace(/\/$/, '')
let stop = async () => {}
if (!base) {
  const dir = mkdtempSync(join(tmpdir(), 'store-soak-'))
  env = {
    NODE_ENV: 'development',
    SQLITE_PATH: join(dir, 'store.db'),
    DATABASE_URL: process.env.SOAK_DATABASE_URL ?? '',
    METRICS_TOKEN,
    LOG_LEVEL: 'warn',
    // Every customer comes from this one address, and signs in again and again.
    CODE_RESEND_SECONDS: '1',
    CODE_SENDS_PER_PHONE_PER_HOUR: '1000',
    CODE_SENDS_PER_IP_PER_HOUR: '100000',
    CODE_SENDS_PER_HOUR: '1000000',
    SIGNUPS_PER_IP_PER_HOUR: '100000',
    PASSWORD_HASH_COST: '15',
  }
  const server = await startServer(await freePort(), env as Record<string, string>)
  base = server.url
  stop = async () => {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
const config = loadConfig(env)
const store = createDb(config)
const operator = async (...argv: string[]) => {
  let out = ''
  const code = await runCli(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: { ...env, OPERATOR: 'soak' },
    store,
  })
  return { code, out }
}

/** Every answer: its route (the path with numbers as :id), status and time. */
const answers: { route: string; status: number; ms: number }[] = []
let nextSlot = performance.now()
/** The next of `rate` evenly spaced request slots a second, across every customer. */
async function pace() {
  nextSlot = Math.max(nextSlot + 1000 / rate, performance.now())
  const wait = nextSlot - performance.now()
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
}

/** The fields of a reply this script reads. */
interface Reply {
  token?: string
  payment_id?: number
}

async function call(
  method: string,
  path: string,
  {
    token,
    form,
    headers = {},
  }: { token?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Reply | undefined }> {
  await pace()
  let body: FormData | undefined
  if (form) {
    body = new FormData()
    for (const [k, v] of Object.entries(form)) body.append(k, v)
  }
  const started = performance.now()
  const res = await fetch(`${base}/api/${path}`, {
    method,
    body,
    headers: {
      'x-requested-with': 'soak',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  })
  const text = await res.text()
  const route = `${method} /api/${path.split('?')[0]!.replace(/\/\d+(?=\/|$)/g, '/:id')}`
  answers.push({ route, status: res.status, ms: performance.now() - started })
  let parsed: Reply | undefined
  try {
    parsed = JSON.parse(text) as Reply
  } catch {
    parsed = undefined
  }
  return { status: res.status, body: parsed }
}

async function codeSentTo(phone: string): Promise<string> {
  const row = await store.db
    .selectFrom('outbox')
    .select('code')
    .where('recipient', '=', phone)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return row?.code ?? '0000'
}

async function rss(): Promise<number | undefined> {
  const res = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }).catch(() => undefined)
  if (!res?.ok) return undefined
  const m = /^process_resident_memory_bytes (\d+)/m.exec(await res.text())
  return m ? Number(m[1]) : undefined
}

const lang = () => (Math.random() < 0.5 ? 'en' : 'ar')
const phoneBase = 100_000 + Math.floor(Math.random() * 800_000)
const card = await store.db
  .selectFrom('packages')
  .select('id')
  .where('name_en', '=', 'iTunes $5')
  .executeTakeFirst()
if (!card) throw new Error('the store has no "iTunes $5" package (the demo catalogue)')
const products = await store.db.selectFrom('products').select('id').limit(20).execute()
let approvals = 0
let approvalFailures = 0

/** One customer, from sign-up to the end of the soak. */
async function customer(n: number, until: number) {
  const user = {
    username: `soak_${phoneBase}_${n}`,
    phone_number: `+96176${String(phoneBase + n).padStart(6, '0')}`,
    email: `soak.${phoneBase}.${n}@example.com`,
    password: 'soak-Secret-pass-1',
  }
  await call('POST', 'signup?validate=1', { form: user })
  const signedUp = await call('POST', 'signup?auth=1', {
    form: { ...user, verification_code: await codeSentTo(user.phone_number) },
  })
  let token: string | undefined = signedUp.body?.token
  let credit = 0
  while (Date.now() < until) {
    const roll = Math.random()
    const product = products[Math.floor(Math.random() * products.length)]?.id ?? 27
    if (!token || roll < 0.03) {
      await call('POST', 'login?check=1', {
        form: { username: user.username, password: user.password },
      })
      const done = await call('POST', 'login?auth=1', {
        form: {
          username: user.username,
          password: user.password,
          verification_code: await codeSentTo(user.phone_number),
        },
      })
      token = done.body?.token ?? token
    } else if (roll < 0.6) {
      const pages = [
        `website/info?local=${lang()}`,
        `products?local=${lang()}`,
        `products/groups?local=${lang()}`,
        `products/${product}?local=${lang()}`,
        `products/${product}/packages?local=${lang()}`,
      ]
      await call('GET', pages[Math.floor(Math.random() * pages.length)]!)
    } else if (roll < 0.8) {
      if (credit < 6) {
        // A top-up: the USDT request, then the operator confirms the transfer.
        const asked = await call('POST', 'wallet/request-payment', {
          token,
          form: { amount: '20', network: 'trc20' },
        })
        const id = asked.body?.payment_id
        if (id) {
          const confirmed = await operator(
            'payments:confirm',
            String(id),
            '--tx',
            randomBytes(32).toString('hex'),
          )
          if (confirmed.code === 0) {
            approvals++
            credit += 20
          } else approvalFailures++
        }
      } else {
        const placed = await call('POST', 'automated/get/packages', {
          token,
          form: { package_id: String(card!.id) },
          headers: { 'Idempotency-Key': randomUUID() },
        })
        if (placed.status === 200) credit -= 5.41
        else if (placed.status === 422) credit = 0
      }
    } else if (roll < 0.9) {
      await call('GET', `notifications?local=${lang()}`, { token })
    } else {
      await call('GET', Math.random() < 0.5 ? 'payment-logs' : 'orders', { token })
    }
  }
}

const started = Date.now()
const rssStart = await rss()
const until = started + minutes * 60_000
// The garbage collector makes RSS a sawtooth: sampled every 10 s, the highest of the first
// third of the run against the highest of the last third tells growth from a sawtooth.
const samples: number[] = []
const sampling = setInterval(
  () => void rss().then((b) => b !== undefined && samples.push(b)),
  10_000,
)
await Promise.all(Array.from({ length: users }, (_, n) => customer(n, until)))
clearInterval(sampling)
const seconds = (Date.now() - started) / 1000
const rssEnd = await rss()
const third = Math.floor(samples.length / 3)
const highest = (part: number[]) => (part.length ? Math.max(...part) : undefined)
const audit = await operator('wallet:audit')
await store.destroy()
await stop()

const mib = (bytes: number | undefined) =>
  bytes === undefined ? '?' : `${(bytes / 2 ** 20).toFixed(1)} MiB`
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
const routes = [...new Set(answers.map((a) => a.route))].sort()
console.log(
  `soak: ${answers.length} requests in ${seconds.toFixed(0)} s (${(answers.length / seconds).toFixed(1)}/s) from ${users} customers against ${base}`,
)
console.log('route | requests | p50 ms | p99 ms | statuses')
for (const route of routes) {
  const mine = answers.filter((a) => a.route === route)
  const times = mine.map((a) => a.ms).sort((a, b) => a - b)
  const statuses = Object.entries(
    mine.reduce<Record<number, number>>(
      (acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
      {},
    ),
  )
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ')
  console.log(
    `${route} | ${mine.length} | ${median(times).toFixed(1)} | ${percentile(times, 99).toFixed(1)} | ${statuses}`,
  )
}
const errors = answers.filter((a) => a.status >= 500)
console.log(`5xx: ${errors.length}; approvals: ${approvals} (${approvalFailures} refused)`)
console.log(
  `RSS: ${mib(rssStart)} at the start, ${mib(rssEnd)} at the end; highest of ${samples.length} samples ` +
    `in the first third ${mib(highest(samples.slice(0, third)))}, in the last ${mib(highest(samples.slice(-third)))}`,
)
console.log(`wallet:audit: ${audit.out.trim()}`)
process.exit(errors.length > 0 || audit.code !== 0 ? 1 : 0)
