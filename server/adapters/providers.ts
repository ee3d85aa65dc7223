import type { Config } from '../config'
import type { Logger } from '../log'
import type { Provider } from './provider'
import { createHttpProvider } from './provider-http'
import { createLocalProvider } from './provider-local'

/** The HTTP provider when PROVIDER_URL is set, else the local demo one. */
export function createProvider(config: Pick<Config, 'provider'>, logger?: Logger): Provider {
  return config.provider ? createHttpProvider(config.provider, { logger }) : createLocalProvider()
}
