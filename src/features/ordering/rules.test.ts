import { beforeAll, describe, expect, it } from 'vitest'
import { formKind, type PurchaseTerms } from '../../domain/ordering'
import { activateLocale } from '../../i18n/locale'
import { terms as testTerms } from '../../test/terms'
import { clampQuantity, emptyValues, firstProblem, type OrderValues } from './rules'

const terms = (over: Partial<PurchaseTerms> = {}) => testTerms({ target: 'package', ...over })

const values = (over: OrderValues = {}): OrderValues => ({ ...emptyValues(terms()), ...over })

describe('order rules, as the form says them', () => {
  beforeAll(() => activateLocale('en'))

  it('picks the form from the item', () => {
    expect(formKind(terms())).toBe('standard')
    expect(formKind(terms({ number: 3 }))).toBe('crypto')
    expect(formKind(terms({ hasSecondPrice: true }))).toBe('crypto')
    expect(formKind(terms({ requirements: [{ name: 'server', label: 'Server' }] }))).toBe(
      'requirements',
    )
    expect(formKind(terms({ services: [{ type: 'LIKES', minimum: 100 }] }))).toBe('social')
  })

  it('clamps to the maximum while typing and keeps only digits', () => {
    expect(clampQuantity('9', 5)).toBe('5')
    expect(clampQuantity('12a', 0)).toBe('12')
    expect(clampQuantity('', 5)).toBe('')
  })

  it('gives the quantity messages', () => {
    expect(firstProblem(terms(), values({ quantity: '' }), null)).toBe(
      'Quantity must be greater than or equal to 1',
    )
    expect(
      firstProblem(terms({ target: 'product', minimum: 10 }), values({ quantity: '3' }), null),
    ).toBe('Quantity must be greater than or equal to 10')
    expect(firstProblem(terms({ maximum: 5 }), values({ quantity: '6' }), null)).toBe(
      'Quantity must be less than or equal to 5',
    )
    expect(firstProblem(terms(), values({ quantity: '2' }), null)).toBeNull()
  })

  it('asks for each requirement by its label, first one only', () => {
    const needs = terms({
      requirements: [
        { name: 'player_id', label: 'Player ID' },
        { name: 'server', label: 'Server' },
      ],
    })
    expect(firstProblem(needs, values(), null)).toBe('Player ID is required.')
    expect(firstProblem(needs, values({ player_id: '7' }), null)).toBe('Server is required.')
  })

  it('wants the looked-up player number, unchanged', () => {
    const lookup = terms({ thirdPartyApiId: 1 })
    expect(firstProblem(lookup, values({ player_number: '12345' }), null)).toBe(
      'The player number must be correct.',
    )
    expect(firstProblem(lookup, values({ player_number: '12345' }), '12345')).toBeNull()
    expect(firstProblem(lookup, values({ player_number: '123456' }), '12345')).toBe(
      'The player number must be correct.',
    )
  })

  it('fixes Free Fire packages at one unit', () => {
    const freeFire = terms({ pkey: 'FREE_FIRE', requirePlayerNumber: true })
    expect(emptyValues(freeFire).quantity).toBe('1')
    expect(
      firstProblem(freeFire, { ...emptyValues(freeFire), player_number: '55555' }, null),
    ).toBeNull()
  })

  it('asks an item that signs in to the game account for its e-mail or phone', () => {
    expect(firstProblem(terms({ accountLogin: true }), values(), null)).toBe(
      'Email or phone number is required.',
    )
  })

  it('leaves the e-mail or phone optional elsewhere, and checks its form only when filled', () => {
    for (const item of [terms(), terms({ isTiktok: true })]) {
      expect(firstProblem(item, values(), null)).toBeNull()
      expect(firstProblem(item, values({ email_or_phone_number: 'not an address' }), null)).toBe(
        'Enter an e-mail address or a phone number.',
      )
      for (const fine of ['gamer@example.com', '+961 70 123 456', '(03) 123-456'])
        expect(firstProblem(item, values({ email_or_phone_number: fine }), null)).toBeNull()
    }
    expect(
      firstProblem(terms({ accountLogin: true }), values({ email_or_phone_number: '12' }), null),
    ).toBe('Enter an e-mail address or a phone number.')
  })
})
