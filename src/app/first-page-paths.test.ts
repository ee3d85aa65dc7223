import { describe, expect, it } from 'vitest'
import { firstPageName, needsSignIn } from './first-page-paths'

describe('firstPageName', () => {
  it('knows the pages shown without the router, with the ids their routes take', () => {
    expect(firstPageName('/search')).toBe('search')
    expect(firstPageName('/groups/2')).toBe('group')
    expect(firstPageName('/groups/two')).toBeUndefined()
    expect(firstPageName('/groups/12345678901')).toBeUndefined()
    expect(firstPageName('/products/products-1/1')).toBe('product')
    expect(firstPageName('/products/products-7/packages/3')).toBe('package')
    expect(firstPageName('/products/products-8/1')).toBeUndefined()
    expect(firstPageName('/reset-password/a%20token')).toBe('resetLink')
    expect(firstPageName('/Orders/12')).toBe('order')
    expect(firstPageName('/Orders/twelve')).toBeUndefined()
    expect(firstPageName('/about-us')).toBe('about')
    expect(firstPageName('/About-us')).toBeUndefined()
    expect(firstPageName('/no-such-page')).toBeUndefined()
    expect(firstPageName('/')).toBeUndefined()
    // The console, for anyone: its own sign-in decides.
    expect(firstPageName('/admin', true)).toBe('console')
    expect(firstPageName('/admin/top-ups', false)).toBe('consoleTopUps')
  })

  it("leaves to the router a visitor the route's guard sends elsewhere", () => {
    expect(firstPageName('/sign-in', false)).toBe('signIn')
    expect(firstPageName('/sign-in', true)).toBeUndefined()
    expect(firstPageName('/sign-up/', false)).toBe('signUp')
    expect(firstPageName('/Orders', true)).toBe('orders')
    expect(firstPageName('/Orders', false)).toBeUndefined()
    expect(firstPageName('/wallet', false)).toBeUndefined()
    expect(firstPageName('/search', true)).toBe('search')
    expect(firstPageName('/reset-password/t', true)).toBeUndefined()
    expect(firstPageName('/charging-the-wallet', false)).toBeUndefined()
    expect(firstPageName('/Notifications', true)).toBe('notifications')
  })

  it('says which are a signed-in customer’s own', () => {
    expect(needsSignIn('/wallet')).toBe(true)
    expect(needsSignIn('/sign-in')).toBe(false)
    expect(needsSignIn('/groups/1')).toBe(false)
    expect(needsSignIn('/')).toBe(false)
  })
})
