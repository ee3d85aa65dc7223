import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { FirstScreenSchema, WebsiteInfoSchema } from '../contract/site'
import { cachedWebsiteInfoOf, firstScreenOf, websiteInfoOf } from './shapes'

/** The check agrees with the schema: the same verdict, and the same output when it passes. */
function agrees<T>(schema: v.GenericSchema, check: (value: unknown) => T, value: unknown) {
  const parsed = v.safeParse(schema, value)
  expect(check(value) !== undefined, JSON.stringify(value)).toBe(parsed.success)
  if (parsed.success) expect(check(value)).toEqual(parsed.output)
}

const info = {
  primary_color: '#0f766e',
  secondary_color: '#111827',
  logo_url: 'https://example.test/logo.png',
  logo_width: 140,
  logo_mobile_width: '100px',
  icon_url: null,
  website_name: 'Store',
  lbp_rate: 89_500,
  time_zone: 'Asia/Beirut',
  extra: 'left out',
}

const product = { id: 1, number: 3, name: 'Game', image: null, available: 1, extra: true }
const group = { id: 2, name: 'Games', image: '/media/g.svg', products_count: 3, extra: 1 }
const contact = {
  email: 'help@example.test',
  first_phone_number: '+96170000001',
  second_phone_number: null,
  whatsapp: '+96170000001',
  extra: 'left out',
}
const screen = {
  generated_at: 1_795_660_800_000,
  locale: 'en',
  website_info: { website_info: JSON.stringify(info) },
  slider: { data: [{ id: 1, image: '/media/a.webp' }] },
  products: { data: [product], total: 1, per_page: 15, current_page: 1, last_page: 1 },
  groups: { data: [group] },
  contact: { data: contact },
}

/** Every way of breaking one field (or leaving it out) of `base`. */
function variants(base: Record<string, unknown>) {
  const values = [undefined, null, 0, 1, 2, 1.5, Number.NaN, '', '0', '1', 'x', true, false, [], {}]
  return Object.keys(base).flatMap((key) =>
    values.map((value) => {
      const copy = { ...base }
      if (value === undefined) delete copy[key]
      else copy[key] = value
      return copy
    }),
  )
}

describe('first-load checks', () => {
  it('read the website info as WebsiteInfoSchema does', () => {
    agrees(WebsiteInfoSchema, websiteInfoOf, info)
    for (const value of variants(info)) agrees(WebsiteInfoSchema, websiteInfoOf, value)
    for (const value of [null, 'info', 1, []]) agrees(WebsiteInfoSchema, websiteInfoOf, value)
  })

  it('read the stored copy of the website info with its time', () => {
    expect(cachedWebsiteInfoOf({ data: info, timestamp: 5 })).toEqual({
      data: v.parse(WebsiteInfoSchema, info),
      timestamp: 5,
    })
    expect(cachedWebsiteInfoOf({ data: info })).toBeUndefined()
    expect(cachedWebsiteInfoOf({ data: { ...info, website_name: 1 }, timestamp: 5 })).toBe(
      undefined,
    )
  })

  it('read the first screen as FirstScreenSchema does', () => {
    agrees(FirstScreenSchema, firstScreenOf, screen)
    for (const value of variants(screen)) agrees(FirstScreenSchema, firstScreenOf, value)
    const withProduct = (item: unknown) => ({
      ...screen,
      products: { ...screen.products, data: [item] },
    })
    for (const item of variants(product))
      agrees(FirstScreenSchema, firstScreenOf, withProduct(item))
    for (const value of variants(screen.products))
      agrees(FirstScreenSchema, firstScreenOf, { ...screen, products: value })
    for (const value of variants({ id: 1, image: '/media/a.webp' }))
      agrees(FirstScreenSchema, firstScreenOf, { ...screen, slider: { data: [value] } })
    for (const value of variants(group))
      agrees(FirstScreenSchema, firstScreenOf, { ...screen, groups: { data: [value] } })
    for (const value of variants(contact))
      agrees(FirstScreenSchema, firstScreenOf, { ...screen, contact: { data: value } })
    for (const value of [null, {}, { website_info: 1 }])
      agrees(FirstScreenSchema, firstScreenOf, { ...screen, website_info: value })
  })
})
