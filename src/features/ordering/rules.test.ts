import { beforeAll, describe, expect, it } from 'vitest'
import { activateLocale } from '../../i18n/locale'
import { formKind, type Purchasable } from './item'
import { clampQuantity, emptyValues, firstProblem, type OrderValues } from './rules'

const item = (over: Partial<Purchasable> = {}): Purchasable => ({
  target: 'package',
  id: 1,
  productId: 1,
  number: 1,
  name: '60 UC',
  productName: 'PUBG Mobile UC',
  available: true,
  minimum: 1,
  maximum: 0,
  companyPrice: 1,
  companyPercentage: 0,
  productPercentage: 0,
  requirements: [],
  requirePlayerNumber: false,
  isTiktok: false,
  services: [],
  ...over,
})

const values = (over: Partial<OrderValues> = {}): OrderValues => ({
  ...emptyValues(item()),
  ...over,
})
const none = { verifiedNumber: null }

describe('order rules', () => {
  beforeAll(() => activateLocale('en'))

  it('picks the form from the item', () => {
    expect(formKind(item())).toBe('standard')
    expect(formKind(item({ number: 3 }))).toBe('crypto')
    expect(formKind(item({ secCompanyPrice: 2 }))).toBe('crypto')
    expect(formKind(item({ requirements: [{ name: 'server', label: 'Server' }] }))).toBe(
      'requirements',
    )
    const like = { type: 'LIKES', company_price: 1, minimum_qut: 100, product_percentage: 0 }
    expect(formKind(item({ services: [like] }))).toBe('social')
  })

  it('clamps to the maximum while typing and keeps only digits', () => {
    expect(clampQuantity('9', 5)).toBe('5')
    expect(clampQuantity('12a', 0)).toBe('12')
    expect(clampQuantity('', 5)).toBe('')
  })

  it('gives the quantity messages of spec section 5', () => {
    expect(firstProblem(item(), 'standard', values({ quantity: '' }), none)).toBe(
      'Quantity must be greater than or equal to 1',
    )
    expect(
      firstProblem(
        item({ target: 'product', minimum: 10 }),
        'standard',
        values({ quantity: '3' }),
        none,
      ),
    ).toBe('Quantity must be greater than or equal to 10')
    expect(firstProblem(item({ maximum: 5 }), 'standard', values({ quantity: '6' }), none)).toBe(
      'Quantity must be less than or equal to 5',
    )
    expect(firstProblem(item(), 'standard', values({ quantity: '2' }), none)).toBeNull()
  })

  it('asks for each requirement by its label, first one only', () => {
    const needs = item({
      requirements: [
        { name: 'player_id', label: 'Player ID' },
        { name: 'server', label: 'Server' },
      ],
    })
    expect(firstProblem(needs, 'requirements', values(), none)).toBe('Player ID is required.')
    expect(
      firstProblem(needs, 'requirements', values({ requirements: { player_id: '7' } }), none),
    ).toBe('Server is required.')
  })

  it('wants the looked-up player number, unchanged', () => {
    const lookup = item({ thirdPartyApiId: 1 })
    expect(firstProblem(lookup, 'standard', values({ player_number: '12345' }), none)).toBe(
      'The player number must be correct.',
    )
    expect(
      firstProblem(lookup, 'standard', values({ player_number: '12345' }), {
        verifiedNumber: '12345',
      }),
    ).toBeNull()
    expect(
      firstProblem(lookup, 'standard', values({ player_number: '123456' }), {
        verifiedNumber: '12345',
      }),
    ).toBe('The player number must be correct.')
  })

  it('fixes Free Fire packages at one unit', () => {
    const freeFire = item({ pkey: 'FREE_FIRE', requirePlayerNumber: true })
    expect(emptyValues(freeFire).quantity).toBe('1')
    expect(
      firstProblem(
        freeFire,
        'standard',
        { ...emptyValues(freeFire), player_number: '55555' },
        none,
      ),
    ).toBeNull()
  })
})
