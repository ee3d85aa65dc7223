import { describe, expect, it } from 'vitest'
import type { PackageDetail } from '../../contract/catalogue'
import { fromPackage } from './item'
import { orderBody } from './order-body'

const pkg = (over: Partial<PackageDetail> = {}): PackageDetail => ({
  id: 7,
  name: '60 UC',
  image: null,
  number: 1,
  type: 'package',
  merge_to: null,
  available: true,
  is_available: true,
  company_price: 1,
  company_percentage: 0,
  product_percentage: 0,
  package_id: null,
  note: null,
  minimum_qut: 1,
  maximum_qut: 0,
  minimum_qut_note: null,
  force_unavailable: false,
  sec_company_price: null,
  product_reference: 'PUBGM',
  requirements: [],
  require_player_number: false,
  th_party_api_id: 1,
  th_party_as7ab_api: null,
  player_numbers: [],
  is_tiktok: false,
  account_login: false,
  pkey: null,
  istoken: false,
  product_id: 1,
  product_name: 'PUBG Mobile UC',
  ...over,
})

const typed = {
  quantity: '3',
  player_number: ' 12345 ',
  contact_number: '+961 70 000 000',
  social_link: 'https://example.com',
  wallet_address: 'TXnot-asked',
  email_or_phone_number: 'someone@example.com',
}

describe('orderBody', () => {
  it('sends the item and only the fields its form has, trimmed', () => {
    expect(orderBody(fromPackage(pkg()), typed, 'Player 12345')).toEqual({
      package_id: 7,
      product_reference: 'PUBGM',
      qty: 3,
      player_number: '12345',
      player_name: 'Player 12345',
      email_or_phone_number: 'someone@example.com',
      contact_number: '+961 70 000 000',
    })
  })

  it('sends the account login of an item that signs in, and no quantity for Free Fire', () => {
    const login = fromPackage(pkg({ th_party_api_id: null, account_login: true }))
    expect(orderBody(login, typed, null)).toMatchObject({
      email_or_phone_number: 'someone@example.com',
    })
    expect(orderBody(login, typed, null)).not.toHaveProperty('player_number')
    const freeFire = fromPackage(pkg({ pkey: 'FREE_FIRE', require_player_number: true }))
    expect(orderBody(freeFire, typed, null)).not.toHaveProperty('qty')
  })

  it('sends each requirement field under its own name', () => {
    const needs = fromPackage(
      pkg({
        th_party_api_id: null,
        requirements: [
          { name: 'player_id', label: 'Player ID' },
          { name: 'server', label: 'Server' },
        ],
      }),
    )
    expect(orderBody(needs, { quantity: '1', player_id: '998877', server: '2001' }, null)).toEqual({
      package_id: 7,
      product_reference: 'PUBGM',
      qty: 1,
      player_id: '998877',
      server: '2001',
    })
  })
})
