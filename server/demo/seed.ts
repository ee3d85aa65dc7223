import type { Kysely } from 'kysely'
import { toMicros } from '../../src/domain/money'
import { PasswordHasher } from '../services/passwords'
import { insertUser } from '../services/users'
import { t } from '../i18n'
import { addWalletLog } from '../services/wallet'
import type { Database } from '../db/schema'
import { seedDemoCatalogue } from './seed-catalogue'
import { demoPackage, seedDemoOrders } from './seed-orders'
import { createPromo } from '../services/promo-codes'
import { importCodes } from '../services/stock'
import { paymentSettings, storePaymentSettings, type PaymentSettings } from '../services/settings'

/**
 * A small code stock (docs/api.md, Code stock): the demo's Steam $5 cards are delivered the
 * moment they are paid, until these run out.
 */
export const DEMO_STOCK = {
  product: 31,
  package: 'Steam $5',
  codes: ['STM5-DEMO-A1B2-C3D4', 'STM5-DEMO-E5F6-G7H8', 'STM5-DEMO-J9K0-L1M2'],
}

async function seedDemoStock(trx: Kysely<Database>, now: Date, tokenSecret: string | undefined) {
  const pkg = await demoPackage(trx, DEMO_STOCK.product, DEMO_STOCK.package)
  if (!pkg) return
  const codes = DEMO_STOCK.codes.map((code, i) => ({ line: i + 1, code, expiresOn: null }))
  await importCodes(trx, tokenSecret, pkg.id, codes, now)
}

/** Marks that the demo content was loaded, so it is never loaded twice. */
export const SEED_META_KEY = 'demo_seed'

const media = (file: string) => `/media/${file}`

/**
 * Demo content for a fresh store: it shows every part of the storefront working before the
 * operator has entered anything. Image files live in server/media (content-hashed names).
 */
export const demoSeed = {
  /** Every top-up method shows on the charging page: both USDT networks, Whish, OMT, a code. */
  payments: {
    usdt_trc20: 'TNTYuKfobXw9Qphr49rwuo7uWjvmmUWkcJ',
    usdt_bep20: '0x66f15a81bfe18c3db3ddd3c85f463223f58823f0',
    whish_money_text:
      'Send the amount by Whish Money to +961 70 000 100 (Wallet Store), then add a photo of the confirmation.',
    whish_money_text_ar:
      'أرسل المبلغ عبر Whish Money إلى ‎+961 70 000 100‎ (Wallet Store)، ثم أضف صورة التأكيد.',
    omt_pay_text:
      'Pay at any OMT branch or in the OMT Pay app to +961 70 000 200 (Wallet Store), then add a photo of the receipt.',
    omt_pay_text_ar:
      'ادفع في أي فرع OMT أو في تطبيق OMT Pay إلى ‎+961 70 000 200‎ (Wallet Store)، ثم أضف صورة الإيصال.',
    // Millionths of a percent: 1.5 %, 2 % and 3 %.
    usdt_tax: 1_500_000,
    whish_money_tax: 2_000_000,
    omt_pay_tax: 3_000_000,
    usdt_on: 1,
    whish_money_on: 1,
    omt_pay_on: 1,
  } satisfies Partial<PaymentSettings>,
  promoCodes: [
    {
      code: 'WELCOME5',
      value: 5_000_000n,
      currency: 'USD' as const,
      usesAllowed: 1000,
      expiresAt: null,
    },
  ],
  websiteInfo: {
    primary_color: '#0f766e',
    secondary_color: '#f59e0b',
    logo_url: media('logo.2eb98df2.webp'),
    logo_width: 160,
    logo_mobile_width: 120,
    icon_url: media('icon.e2500954.svg'),
    website_name: 'Wallet Store',
    body_bg_image: media('body-bg.2cbbc82f.webp'),
    footer_bg_image: media('footer-bg.172ab343.webp'),
  },
  sliderImages: [
    media('slide-games.3154c4ab.webp'),
    media('slide-payments.c34eb40e.webp'),
    media('slide-codes.2a9e6976.webp'),
  ],
  about: {
    text_en:
      '<h2>About Wallet Store</h2>' +
      '<p>Wallet Store sells game top-ups, gift cards and digital services, paid from one prepaid wallet.</p>' +
      '<ul><li>Top up your wallet with USDT, Whish Money, OMT Pay or a promo code.</li>' +
      '<li>Most orders are delivered within minutes.</li>' +
      '<li>Our support team answers on WhatsApp every day.</li></ul>',
    text_ar:
      '<h2>عن Wallet Store</h2>' +
      '<p>يبيع Wallet Store شحن الألعاب وبطاقات الهدايا والخدمات الرقمية، وتدفع ثمنها من محفظة واحدة مسبقة الدفع.</p>' +
      '<ul><li>اشحن محفظتك عبر USDT أو Whish Money أو OMT Pay أو برمز ترويجي.</li>' +
      '<li>يُسلَّم معظم الطلبات خلال دقائق.</li>' +
      '<li>فريق الدعم لدينا يجيبك على واتساب كل يوم.</li></ul>',
  },
  aboutImages: [media('about-team.fa791fce.webp'), media('about-secure.79c4f673.webp')],
  contact: {
    email: 'support@example.com',
    first_phone_number: '+961 70 123 456',
    second_phone_number: '+961 1 234 567',
    facebook: 'https://www.facebook.com/example',
    instagram: 'https://www.instagram.com/example',
    whatsapp: '+96170123456',
    tiktok: 'https://www.tiktok.com/@example',
  },
  /** Accounts to try the store with (listed in the README). Balances in USD. */
  users: [
    {
      username: 'demo',
      phone_number: '+96170000001',
      email: 'demo@example.com',
      password: 'demo-pass-1',
      type: 'CUSTOMER',
      balance: '100',
    },
    {
      username: 'acme',
      phone_number: '+96170000002',
      email: 'acme@example.com',
      password: 'acme-pass-1',
      type: 'COMPANY',
      balance: '1000',
    },
  ],
} as const

/**
 * Loads the demo content once per database. The guard row is inserted in the same
 * transaction, first: when several instances start together on one PostgreSQL, the others
 * wait on that row's key and then find it taken. Returns whether this call seeded.
 */
export async function seedDemo(
  db: Kysely<Database>,
  now = new Date(),
  passwords = new PasswordHasher(),
  /** The server's TOKEN_SECRET, which seals the demo stock's codes. */
  tokenSecret?: string,
): Promise<boolean> {
  const at = now.toISOString()
  await seedDemoCatalogue(db, now) // its own guard row: also fills stores seeded before it existed
  const done = await db
    .selectFrom('meta')
    .select('key')
    .where('key', '=', SEED_META_KEY)
    .executeTakeFirst()
  if (done) return false
  // Hashed before the transaction: scrypt takes a second or more, and the write lock waits.
  const hashes = await Promise.all(demoSeed.users.map((u) => passwords.hash(u.password)))
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('meta')
      .values({ key: SEED_META_KEY, value: at })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst()
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false

    await trx
      .insertInto('website_info')
      .values({ id: 1, ...demoSeed.websiteInfo, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await trx
      .insertInto('about_us')
      .values({ id: 1, ...demoSeed.about, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await trx
      .insertInto('contact_info')
      .values({ id: 1, ...demoSeed.contact, updated_at: at })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await trx
      .insertInto('slider_images')
      .values(demoSeed.sliderImages.map((image, position) => ({ image, position, created_at: at })))
      .execute()
    await trx
      .insertInto('about_images')
      .values(demoSeed.aboutImages.map((image, position) => ({ image, position, created_at: at })))
      .execute()
    // Unless the owner has set the payment methods already.
    if (!(await trx.selectFrom('payment_settings').select('id').executeTakeFirst()))
      await storePaymentSettings(trx, { ...(await paymentSettings(trx)), ...demoSeed.payments }, at)
    for (const promo of demoSeed.promoCodes) await createPromo(trx, promo, { now })
    for (const [i, demo] of demoSeed.users.entries()) {
      const balance = toMicros(demo.balance)
      const user = await insertUser(
        trx,
        {
          username: demo.username,
          phone_number: demo.phone_number,
          email: demo.email,
          password_hash: hashes[i]!,
          type: demo.type,
          currency: 'USD',
          locale: 'en',
          balance,
        },
        now,
      )
      await addWalletLog(trx, {
        userId: user.id,
        status: 'Charged',
        name: (locale) => t(locale, 'wallet.demo_credit'),
        previousBalance: 0n,
        value: balance,
        currentBalance: balance,
        currency: 'USD',
        now,
      })
      if (demo.username === 'demo') await seedDemoOrders(trx, user, now)
    }
    await seedDemoStock(trx, now, tokenSecret)
    return true
  })
}
