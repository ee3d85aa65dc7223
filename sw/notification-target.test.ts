import { describe, expect, it } from 'vitest'
import { notificationTarget } from './notification-target'

const origin = 'https://shop.example.com'

describe('notificationTarget', () => {
  it('opens pages of the site, relative or absolute', () => {
    expect(notificationTarget('/#/Notifications', origin)).toBe(
      'https://shop.example.com/#/Notifications',
    )
    expect(notificationTarget('#/orders/12', origin)).toBe('https://shop.example.com/#/orders/12')
    expect(notificationTarget('https://shop.example.com/#/orders/12', origin)).toBe(
      'https://shop.example.com/#/orders/12',
    )
  })

  it('opens the home page for any other origin or scheme', () => {
    for (const url of [
      'https://evil.example/phish',
      '//evil.example/phish',
      'http://shop.example.com/#/orders',
      'https://shop.example.com.evil.example/',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https://[bad',
    ]) {
      expect(notificationTarget(url, origin), url).toBe('https://shop.example.com/')
    }
  })

  it('opens the home page when the payload has no URL', () => {
    for (const url of [undefined, null, '', '  ', 42, { href: '/x' }]) {
      expect(notificationTarget(url, origin)).toBe('https://shop.example.com/')
    }
  })
})
