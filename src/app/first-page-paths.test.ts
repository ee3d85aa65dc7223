import { describe, expect, it } from 'vitest'
import { firstPageName, needsSignIn } from './first-page-paths'

describe('firstPageName', () => {
  it('knows the pages shown without the router, with the ids their routes take', () => {
    expect(firstPageName('/search')).toBe('search')
    expect(firstPageName('/groups/2')).toBe('group')
    expect(firstPageName('/groups/two')).toBeUndefined()
    expect(firstPageName('/groups/12345678901')).toBeUndefined()
    expect(firstPageName('/products/products-1/1')).toBeUndefined()
    expect(firstPageName('/')).toBeUndefined()
  })

  it("leaves to the router a visitor the route's guard sends elsewhere", () => {
    expect(firstPageName('/sign-in', false)).toBe('signIn')
    expect(firstPageName('/sign-in', true)).toBeUndefined()
    expect(firstPageName('/sign-up/', false)).toBe('signUp')
    expect(firstPageName('/Orders', true)).toBe('orders')
    expect(firstPageName('/Orders', false)).toBeUndefined()
    expect(firstPageName('/wallet', false)).toBeUndefined()
    expect(firstPageName('/search', true)).toBe('search')
  })

  it('says which are a signed-in customer’s own', () => {
    expect(needsSignIn('/wallet')).toBe(true)
    expect(needsSignIn('/sign-in')).toBe(false)
    expect(needsSignIn('/groups/1')).toBe(false)
    expect(needsSignIn('/')).toBe(false)
  })
})
