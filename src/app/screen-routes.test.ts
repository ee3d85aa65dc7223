import { describe, expect, it } from 'vitest'
import { screenRouteOf } from './screen-routes'

describe('screenRouteOf', () => {
  it("names a product's and a package's page", () => {
    expect(screenRouteOf('/products/products-1/12')).toEqual({ kind: 'product', id: 12 })
    expect(screenRouteOf('/products/products-6/packages/3')).toEqual({ kind: 'package', id: 3 })
  })

  it("names a customer's lists, by their routes' paths", () => {
    expect(screenRouteOf('/Orders')).toEqual({ kind: 'orders' })
    expect(screenRouteOf('/wallet')).toEqual({ kind: 'wallet' })
  })

  it('has no screen for other pages or ids the routes refuse', () => {
    for (const path of [
      '/',
      '/about-us',
      '/products/products-8/1',
      '/products/products-1/abc',
      '/products/products-1/12345678901',
      '/products/products-1/1/extra',
      '/groups/1',
      '/orders',
      '/Orders/1',
      '/wallet/2',
      '/constructor',
      '/toString',
    ])
      expect(screenRouteOf(path), path).toBeUndefined()
  })
})
