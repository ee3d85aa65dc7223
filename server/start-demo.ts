/**
 * `npm start`: the local demo. The same server as `npm run serve`, with what a first look
 * needs: development mode, the demo data (DEMO=1), the outbox reader for the codes
 * (DEV_OUTBOX=1), and the loopback address, so that neither is reachable from the network.
 * Set in the environment, any of them still wins; in .env they do not, because .env is the
 * configuration of `npm run serve` (and may well say NODE_ENV=production).
 */
const DEMO_SETTINGS = {
  NODE_ENV: 'development',
  DEMO: '1',
  DEV_OUTBOX: '1',
  HOST: '127.0.0.1',
}

for (const [key, value] of Object.entries(DEMO_SETTINGS)) {
  if (!process.env[key]?.trim()) process.env[key] = value
}

await import('./main')

export {}
