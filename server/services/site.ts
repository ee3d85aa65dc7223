import type { Kysely } from 'kysely'
import type { Image, Locale } from '../../src/contract/common'
import type { AboutInfo, ContactInfo, WebsiteInfo } from '../../src/contract/site'
import type { Database } from '../db/schema'

/** What the storefront shows before an operator has set anything (no seed, row deleted). */
const DEFAULT_WEBSITE_INFO: WebsiteInfo = {
  primary_color: '#0f766e',
  secondary_color: '#f59e0b',
  logo_url: null,
  logo_width: null,
  logo_mobile_width: null,
  icon_url: null,
  website_name: 'Store',
  body_bg_image: null,
  footer_bg_image: null,
}

export async function getWebsiteInfo(db: Kysely<Database>): Promise<WebsiteInfo> {
  const row = await db
    .selectFrom('website_info')
    .select([
      'primary_color',
      'secondary_color',
      'logo_url',
      'logo_width',
      'logo_mobile_width',
      'icon_url',
      'website_name',
      'body_bg_image',
      'footer_bg_image',
    ])
    .where('id', '=', 1)
    .executeTakeFirst()
  return row ? { ...row } : DEFAULT_WEBSITE_INFO
}

export async function listSliderImages(db: Kysely<Database>): Promise<Image[]> {
  return db
    .selectFrom('slider_images')
    .select(['id', 'image'])
    .orderBy('position')
    .orderBy('id')
    .execute()
}

export async function getAboutInfo(db: Kysely<Database>, locale: Locale): Promise<AboutInfo> {
  const [about, images] = await Promise.all([
    db.selectFrom('about_us').select(['text_en', 'text_ar']).where('id', '=', 1).executeTakeFirst(),
    db
      .selectFrom('about_images')
      .select(['id', 'image'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ])
  return {
    about_us_text: (locale === 'ar' ? about?.text_ar : about?.text_en) ?? '',
    about_us_images: images,
  }
}

export async function getContactInfo(db: Kysely<Database>): Promise<ContactInfo> {
  const row = await db
    .selectFrom('contact_info')
    .select([
      'email',
      'first_phone_number',
      'second_phone_number',
      'facebook',
      'instagram',
      'whatsapp',
      'tiktok',
    ])
    .where('id', '=', 1)
    .executeTakeFirst()
  return (
    row ?? {
      email: null,
      first_phone_number: null,
      second_phone_number: null,
      facebook: null,
      instagram: null,
      whatsapp: null,
      tiktok: null,
    }
  )
}
