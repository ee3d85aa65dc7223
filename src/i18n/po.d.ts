declare module '*.po' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}

/** A catalogue's messages used by home's first load (see `firstMessages` in vite.config.ts). */
declare module '*.po?first' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}
