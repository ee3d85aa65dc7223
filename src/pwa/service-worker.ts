import { registerSW } from 'virtual:pwa-register'
import { formHoldsInput } from './form-input'

let update: ((reloadPage?: boolean) => Promise<void>) | undefined
let showPrompt = () => {}

/**
 * Registers the service worker, once; `onWaiting` shows the update prompt. A new release waits
 * until the customer chooses to reload; the page never reloads on its own while a form holds
 * input, so an update cannot wipe a half-filled order.
 */
export function registerServiceWorker(onWaiting: () => void): void {
  showPrompt = onWaiting
  update ??= registerSW({
    immediate: true,
    onNeedRefresh: () => showPrompt(),
    onNeedReload() {
      if (formHoldsInput()) showPrompt()
      else window.location.reload()
    },
    onRegisterError(error: unknown) {
      console.error('Service worker registration failed', error)
    },
  })
}

/** Lets the waiting release take over; the page reloads once it controls it. */
export function applyUpdate(): Promise<void> {
  return update?.(true) ?? Promise.resolve()
}
