/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API base URL, `/api/` on the same origin when unset. */
  readonly VITE_API_BASE?: string
}

/** The build's identity; busts the persisted query cache on each release. */
declare const __BUILD_ID__: string
