import type { PushConfig } from '../contract/notifications'

/** A store's Firebase web settings, as its server would send them (made up). */
export const TEST_PUSH_CONFIG: PushConfig = {
  apiKey: 'AIzaSy-test',
  projectId: 'test-store',
  messagingSenderId: '1234',
  appId: '1:1234:web:test',
  vapidKey: 'BTEST',
}
