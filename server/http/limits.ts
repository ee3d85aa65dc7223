import type { AppEnv, CallerEnv, MaybeAuthEnv } from './env'
import { byAddress, rateLimit } from './rate-limit'

/**
 * The request limits of the endpoints anyone can call, per address, and of the one that calls
 * the provider for each signed-in user. Hourly, configurable (the browser journeys raise them:
 * they all come from 127.0.0.1).
 */

/** Sign-up, both steps: counted before the details are looked up, so that nobody can probe
 * at speed which phone numbers, e-mails and usernames have accounts. */
export const signupLimit = rateLimit<AppEnv>({
  name: 'signup',
  perHour: (config) => config.rateLimits.signupsPerIp,
  key: byAddress,
})

/** The contact form. */
export const messageLimit = rateLimit<AppEnv>({
  name: 'messages',
  perHour: (config) => config.rateLimits.messagesPerIp,
  key: byAddress,
})

/** Player searches without a session (each one is a provider call). */
export const anonymousLookupLimit = rateLimit<MaybeAuthEnv>({
  name: 'lookup',
  perHour: (config) => config.rateLimits.lookupsPerIp,
  key: (c) => (c.var.user ? undefined : byAddress(c)),
})

/** The order status refresh asks the provider about every open order of the user. */
export const statusRefreshLimit = rateLimit<CallerEnv>({
  name: 'status-bulk',
  perHour: (config) => config.rateLimits.statusRefreshesPerUser,
  key: (c) => `user:${c.var.user.id}`,
})

/** Saving an API token: a few an hour per account, so nobody probes which tokens exist. */
export const tokenSaveLimit = rateLimit<CallerEnv>({
  name: 'token-save',
  perHour: (config) => config.rateLimits.tokenSavesPerUser,
  key: (c) => `user:${c.var.user.id}`,
})
