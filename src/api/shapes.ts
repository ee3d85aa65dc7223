import type { GroupSummary, ProductPage, ProductSummary } from '../contract/catalogue'
import type { Image } from '../contract/common'
import type { ContactInfo, FirstScreen, WebsiteInfo } from '../contract/site'

/**
 * The checks of what the first load reads before any API call: the first screen in the page
 * and the stored website info. They follow the schemas in src/contract (same rules, same
 * output) without valibot, which comes with the first reply a page asks the API for;
 * shapes.test.ts keeps them equal. Each answers undefined for what breaks the contract.
 */

class Broken extends Error {}

const broken = (): never => {
  throw new Broken()
}
const string = (value: unknown) => (typeof value === 'string' ? value : broken())
const number = (value: unknown) =>
  typeof value === 'number' && !Number.isNaN(value) ? value : broken()
const record = (value: unknown) =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : broken()
const list = <T>(value: unknown, item: (value: unknown) => T) =>
  Array.isArray(value) ? value.map(item) : broken()
/** null and undefined as they are, anything else checked. */
const nullish =
  <T>(check: (value: unknown) => T) =>
  (value: unknown) =>
    value == null ? (value as null | undefined) : check(value)
/** 0/1 flags as the API sends them; true/false reads the same (FlagSchema). */
const flag = (value: unknown) =>
  typeof value === 'boolean' || value === '0' || value === '1'
    ? value === true || value === '1'
    : number(value) === 1

function checked<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    if (error instanceof Broken) return undefined
    throw error
  }
}

const readWebsiteInfo = (value: unknown): WebsiteInfo => {
  const info = record(value)
  const width = nullish((item) => (typeof item === 'string' ? item : number(item)))
  return {
    primary_color: string(info.primary_color),
    secondary_color: string(info.secondary_color),
    logo_url: nullish(string)(info.logo_url),
    logo_width: width(info.logo_width),
    logo_mobile_width: width(info.logo_mobile_width),
    icon_url: nullish(string)(info.icon_url),
    website_name: string(info.website_name),
    body_bg_image: nullish(string)(info.body_bg_image),
    footer_bg_image: nullish(string)(info.footer_bg_image),
    lbp_rate: nullish(number)(info.lbp_rate),
    time_zone: nullish(string)(info.time_zone),
  }
}

const readImage = (value: unknown): Image => {
  const image = record(value)
  return { id: number(image.id), image: string(image.image) }
}

const readProduct = (value: unknown): ProductSummary => {
  const product = record(value)
  const productNumber = number(product.number)
  if (!Number.isInteger(productNumber) || productNumber < 1 || productNumber > 7) broken()
  return {
    id: number(product.id),
    number: productNumber as ProductSummary['number'],
    name: string(product.name),
    image: nullish(string)(product.image),
    available: flag(product.available),
  }
}

const readProductPage = (value: unknown): ProductPage => {
  const page = record(value)
  return {
    data: list(page.data, readProduct),
    total: number(page.total),
    per_page: number(page.per_page),
    current_page: number(page.current_page),
    last_page: number(page.last_page),
  }
}

const optionalString = nullish(string)
const readContact = (value: unknown): ContactInfo => {
  const info = record(value)
  return {
    email: optionalString(info.email),
    first_phone_number: optionalString(info.first_phone_number),
    second_phone_number: optionalString(info.second_phone_number),
    facebook: optionalString(info.facebook),
    instagram: optionalString(info.instagram),
    whatsapp: optionalString(info.whatsapp),
    tiktok: optionalString(info.tiktok),
  }
}

const readGroup = (value: unknown): GroupSummary => {
  const group = record(value)
  return {
    id: number(group.id),
    name: string(group.name),
    image: nullish(string)(group.image),
    products_count: number(group.products_count),
  }
}

/** The object a website/info reply carries (WebsiteInfoSchema). */
export const websiteInfoOf = (value: unknown) => checked(() => readWebsiteInfo(value))

/** The stored copy of the website info: the info and when it was read. */
export const cachedWebsiteInfoOf = (value: unknown) =>
  checked(() => {
    const cached = record(value)
    return { data: readWebsiteInfo(cached.data), timestamp: number(cached.timestamp) }
  })

/** The first screen's replies (FirstScreenSchema). */
export const firstScreenOf = (value: unknown) =>
  checked((): FirstScreen => {
    const screen = record(value)
    const locale = screen.locale === 'en' || screen.locale === 'ar' ? screen.locale : broken()
    return {
      generated_at: number(screen.generated_at),
      locale,
      website_info: { website_info: string(record(screen.website_info).website_info) },
      slider: { data: list(record(screen.slider).data, readImage) },
      products: readProductPage(screen.products),
      groups: { data: list(record(screen.groups).data, readGroup) },
      contact: { data: readContact(record(screen.contact).data) },
    }
  })
