import { describe, expect, it } from 'vitest'
import { pushSubject, subjectPage } from './notification-page'

describe('the page of a notification', () => {
  it('opens what it is about, or the list', () => {
    expect(subjectPage({ kind: 'order', id: 12 })).toBe('/Orders/12')
    expect(subjectPage({ kind: 'top-up', id: 5 })).toBe('/shipping-payments/5')
    expect(subjectPage({ kind: 'wallet' })).toBe('/wallet')
    expect(subjectPage(null)).toBe('/Notifications')
  })

  it('reads the subject a push names, and nothing else', () => {
    expect(pushSubject({ kind: 'order', id: '12', tag: 'order-12' })).toEqual({
      kind: 'order',
      id: 12,
    })
    expect(pushSubject({ kind: 'wallet', tag: 'wallet' })).toEqual({ kind: 'wallet' })
    for (const data of [
      undefined,
      {},
      { kind: 'order' },
      { kind: 'order', id: '0' },
      { kind: 'order', id: '12/../../evil' },
      { kind: 'admin', id: '1' },
      { url: 'https://elsewhere.example/' },
    ])
      expect(pushSubject(data), JSON.stringify(data)).toBeNull()
  })
})
