import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { PLAYWRIGHT_DISABLE_FEATURES } from './scripts/lib/chromium'
import { VISITED_COOKIE } from './src/api/storage-keys'

/** Debian's Chromium where Playwright's own browser cannot be downloaded (see README). */
const executablePath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)

const port = Number(process.env.E2E_PORT ?? 4319)
// A fresh database for every run; tests may open it to check what the server stored.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'store-e2e-'))
process.env.E2E_DATA_DIR = dataDir
export const e2eDatabase = join(dataDir, 'store.db')

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // No retries, in CI either: a journey that needs one is a defect to fix, not to hide.
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  // Room for a journey's operator commands (a process each) on a busy 2-core machine: five
  // runs in a row beside other work timed out at 30 s in 10 of 95 journeys, never on a step.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    serviceWorkers: 'allow',
    // A browser that has been here before, as any whose storage a journey sets up has: a page
    // asked for without the store's cookies is a first visit, whose storage is not read
    // (docs/api.md, The first screen). The journeys of a first visit start without it.
    storageState: {
      cookies: [
        {
          name: VISITED_COOKIE,
          value: '1',
          domain: '127.0.0.1',
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            PLAYWRIGHT_DISABLE_FEATURES,
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'tsx server/main.ts',
    url: `http://127.0.0.1:${port}/api/website/info`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: e2eDatabase,
      RECEIPTS_DIR: join(dataDir, 'receipts'),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The journeys use the demo accounts and catalogue, and read codes from the outbox.
      DEMO: '1',
      DEV_OUTBOX: '1',
      // Every journey signs in from 127.0.0.1; the resend journey cannot wait a real minute.
      CODE_RESEND_SECONDS: '2',
      CODE_SENDS_PER_IP_PER_HOUR: '10000',
      CODE_SENDS_PER_PHONE_PER_HOUR: '1000',
      CODE_SENDS_PER_HOUR: '100000',
      SIGNUPS_PER_IP_PER_HOUR: '10000',
      LOOKUPS_PER_IP_PER_HOUR: '10000',
      MESSAGES_PER_IP_PER_HOUR: '10000',
      STATUS_REFRESHES_PER_USER_PER_HOUR: '10000',
      LOGIN_FAILURES_PER_IP: '10000',
      LOGIN_FAILURES_PER_ACCOUNT_PER_DAY: '10000',
      // Password hashing at OWASP's cost takes most of a second on this machine's two cores,
      // shared with two browsers; the journeys test what hashing decides, not what it costs.
      PASSWORD_HASH_COST: '12',
      // The upstream journey's orders are placed and polled within a second.
      UPSTREAM_POLL_MS: '300',
    },
  },
})
