import { describe, expect, it } from 'vitest'
import { terms } from '../test/terms'
import { firstOrderProblem, formFields, needsPlayerNumber, playerMustBeVerified } from './ordering'

const ok = { playerVerified: false }

describe('formFields', () => {
  it('lists what each form has', () => {
    expect(formFields(terms())).toEqual([
      'quantity',
      'email_or_phone_number',
      'password',
      'contact_number',
    ])
    expect(formFields(terms({ services: [{ type: 'LIKES', minimum: 1 }] }))).toEqual([
      'quantity',
      'service_type',
      'social_link',
    ])
    expect(formFields(terms({ number: 3 }))).toEqual(['quantity', 'wallet_address'])
    expect(formFields(terms({ requirements: [{ name: 'uid', label: 'UID' }] }))).toEqual([
      'quantity',
      'uid',
    ])
    expect(formFields(terms({ isTiktok: true, thirdPartyApiId: 1 }))).toEqual([
      'quantity',
      'email_or_phone_number',
      'password',
      'contact_number',
    ])
    expect(
      formFields(terms({ target: 'package', pkey: 'FREE_FIRE', requirePlayerNumber: true })),
    ).toEqual([
      'player_number',
      'player_name',
      'email_or_phone_number',
      'password',
      'contact_number',
    ])
  })

  it('verifies the player only for a looked-up number that is not merely required', () => {
    expect(playerMustBeVerified(terms({ thirdPartyApiId: 1 }))).toBe(true)
    expect(playerMustBeVerified(terms({ thirdPartyApiId: 1, requirePlayerNumber: true }))).toBe(
      false,
    )
    expect(needsPlayerNumber(terms({ requirePlayerNumber: true, isTiktok: true }))).toBe(false)
  })
})

describe('firstOrderProblem', () => {
  it('reads a missing quantity as one and an emptied one as none', () => {
    expect(firstOrderProblem(terms(), {}, ok)).toBeNull()
    expect(firstOrderProblem(terms(), { quantity: '' }, ok)).toEqual({
      field: 'quantity',
      id: 'order.quantity.min',
      values: { min: 1 },
    })
    expect(firstOrderProblem(terms(), { quantity: '2.5' }, ok)?.id).toBe('order.quantity.integer')
    expect(firstOrderProblem(terms(), { quantity: '100000001' }, ok)).toEqual({
      field: 'quantity',
      id: 'order.quantity.max',
      values: { max: 100_000_000 },
    })
  })

  it('takes a social service in any case, with its own minimum', () => {
    const social = terms({ services: [{ type: 'VIEWS', minimum: 500 }] })
    expect(firstOrderProblem(social, { quantity: '600' }, ok)).toEqual({
      field: 'service_type',
      id: 'order.field.required',
    })
    expect(firstOrderProblem(social, { service_type: 'LIKES', quantity: '600' }, ok)?.id).toBe(
      'order.service_type.invalid',
    )
    expect(firstOrderProblem(social, { service_type: 'views', quantity: '499' }, ok)).toEqual({
      field: 'quantity',
      id: 'order.quantity.min',
      values: { min: 500 },
    })
  })

  it('refuses what no one should type: too long, control and formatting characters', () => {
    expect(firstOrderProblem(terms(), { contact_number: '7'.repeat(256) }, ok)).toEqual({
      field: 'contact_number',
      id: 'order.field.too_long',
      values: { max: 255 },
    })
    for (const sneaky of ['a\u202eb', 'a\u200bb', 'a\u0007b'])
      expect(firstOrderProblem(terms(), { contact_number: sneaky }, ok)?.id).toBe(
        'order.field.characters',
      )
    // A field the form does not have is not read at all.
    expect(firstOrderProblem(terms(), { social_link: 'x'.repeat(300) }, ok)).toBeNull()
  })

  it('names a requirement by its label', () => {
    const needs = terms({ requirements: [{ name: 'server', label: 'Server' }] })
    expect(firstOrderProblem(needs, { server: ' ' }, ok)).toEqual({
      field: 'server',
      id: 'order.field.required',
      values: { label: 'Server' },
    })
  })
})
