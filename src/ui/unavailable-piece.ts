import { lazyPiece } from './lazy-piece'

/** The unavailable dialog, loaded only when shown: Radix's dialog is rare on a first screen. */
export const UnavailableDialog = lazyPiece(() =>
  import('./unavailable-dialog').then((m) => m.UnavailableDialog),
)
