import type { Kysely, Transaction } from 'kysely'
import {
  CATALOGUE_FORMAT,
  CATALOGUE_SEED_META_KEY,
  CATALOGUE_VERSION,
  checkCatalogue,
  type CatalogueFileInput,
} from '../services/catalogue-file'
import { replaceCatalogue } from '../services/catalogue-transfer'
import type { Database } from '../db/schema'

type ProductInput = CatalogueFileInput['products'][number]
type PackageInput = NonNullable<ProductInput['packages']>[number]
type ServiceInput = NonNullable<ProductInput['additional_services']>[number]

/**
 * The demo catalogue: every kind of product page (numbers 1 to 7) and every case the
 * storefront handles, in both languages, with realistic prices in USD. Written in the
 * import file's format, so it is checked by the same rules as an operator's file. Ids are
 * fixed: a fresh store always has the same ones (tests and the README rely on them).
 */
export function demoCatalogue(): CatalogueFileInput {
  let packageId = 1
  let serviceId = 1
  let imageId = 1
  const pkg = (
    name_en: string,
    name_ar: string,
    company_price: string,
    extra: Partial<PackageInput> = {},
  ): PackageInput => {
    const id = packageId++
    return { id, name_en, name_ar, company_price, package_id: 5000 + id, ...extra }
  }
  /** Amount packages: "60 UC" / "60 شدة" and so on. */
  const amounts = (
    unitEn: string,
    unitAr: string,
    list: [number, string][],
    extra: (amount: number) => Partial<PackageInput> = () => ({}),
  ) =>
    list.map(([amount, price]) =>
      pkg(
        `${amount.toLocaleString('en-US')} ${unitEn}`,
        `${amount.toLocaleString('en-US')} ${unitAr}`,
        price,
        extra(amount),
      ),
    )
  /** Gift cards: "$10 card" entries delivered as codes. */
  const cards = (
    nameEn: string,
    nameAr: string,
    list: [number, string][],
    currency?: [string, string],
  ) =>
    list.map(([value, price]) =>
      currency
        ? pkg(`${nameEn} ${value} ${currency[0]}`, `${nameAr} ${value} ${currency[1]}`, price, {
            type: 'code',
          })
        : pkg(`${nameEn} $${value}`, `${nameAr} ${value}$`, price, { type: 'code' }),
    )
  const service = (
    type: string,
    company_price: string,
    minimum_qut: number,
    [note_en, note_ar]: [string, string],
  ): ServiceInput => ({
    id: serviceId++,
    type,
    company_price,
    minimum_qut,
    product_percentage: '10',
    minimum_qut_note_en: `Minimum ${minimum_qut.toLocaleString('en-US')}`,
    minimum_qut_note_ar: `الحد الأدنى ${minimum_qut.toLocaleString('en-US')}`,
    note_en,
    note_ar,
  })
  const gallery = (count: number) => Array.from({ length: count }, () => ({ id: imageId++ }))
  const months = (
    plans: [string, string, string][],
    extra: Partial<PackageInput> = {},
  ): PackageInput[] =>
    plans.map(([en, ar, price]) => pkg(en, ar, price, { type: 'subscription', ...extra }))

  const POPULAR = 1
  const SOCIAL = 2
  const playerId = { name: 'player_id', label_en: 'Player ID', label_ar: 'معرّف اللاعب' }
  const server = { name: 'server', label_en: 'Server', label_ar: 'السيرفر' }

  const products: ProductInput[] = [
    // 1: game top-ups by packages
    {
      id: 1,
      number: 1,
      group_id: POPULAR,
      name_en: 'PUBG Mobile UC',
      name_ar: 'شدات ببجي موبايل',
      note_en: 'Enter your character ID. UC is added to your account within minutes.',
      note_ar: 'أدخل معرّف شخصيتك. تُضاف الشدات إلى حسابك خلال دقائق.',
      images: gallery(3),
      company_price: '0.89',
      product_percentage: '5',
      th_party_api_id: 1,
      th_party_as7ab_api: 'pubg-mobile',
      product_reference: 'PUBGM',
      packages: [
        ...amounts('UC', 'شدة', [
          [60, '0.89'],
          [325, '4.45'],
          [660, '8.90'],
          [1800, '22.25'],
          [3850, '44.50'],
          [8100, '89'],
        ]),
        pkg('Prime Plus (1 month)', 'برايم بلس (شهر واحد)', '8.50', {
          type: 'subscription',
          maximum_qut: 1,
          note_en: 'One subscription per account at a time.',
          note_ar: 'اشتراك واحد لكل حساب في الوقت نفسه.',
        }),
      ],
    },
    {
      id: 2,
      number: 1,
      group_id: POPULAR,
      name_en: 'Free Fire Diamonds',
      name_ar: 'جواهر فري فاير',
      note_en: 'Diamonds are sent to the player ID you enter.',
      note_ar: 'تُرسَل الجواهر إلى معرّف اللاعب الذي تدخله.',
      company_price: '0.95',
      product_percentage: '5',
      require_player_number: true,
      pkey: 'FREE_FIRE',
      packages: [
        ...amounts('Diamonds', 'جوهرة', [
          [100, '0.95'],
          [310, '2.85'],
          [520, '4.75'],
          [1060, '9.50'],
          [2180, '19'],
        ]),
        pkg('Weekly Membership', 'العضوية الأسبوعية', '1.85', { type: 'membership' }),
        pkg('Monthly Membership', 'العضوية الشهرية', '8.90', { type: 'membership' }),
      ],
    },
    {
      id: 3,
      number: 1,
      group_id: POPULAR,
      name_en: 'Call of Duty Mobile CP',
      name_ar: 'نقاط كول أوف ديوتي موبايل',
      company_price: '0.95',
      product_percentage: '5',
      require_player_number: true,
      packages: [
        ...amounts('CP', 'نقطة CP', [
          [80, '0.95'],
          [420, '4.75'],
          [880, '9.50'],
        ]),
        pkg('2,400 CP', '2,400 نقطة CP', '23.50', { is_available: false }),
      ],
    },
    {
      id: 4,
      number: 1,
      group_id: POPULAR,
      name_en: 'Roblox Robux',
      name_ar: 'روبوكس روبلوكس',
      note_en: 'Robux are added to the Roblox account you give us.',
      note_ar: 'تُضاف الروبوكس إلى حساب روبلوكس الذي تزوّدنا به.',
      company_price: '4.75',
      product_percentage: '6',
      // The Robux are added by signing in to the customer's Roblox account.
      account_login: true,
      packages: [
        ...amounts('Robux', 'روبوكس', [
          [400, '4.75'],
          [800, '9.50'],
          [1700, '19'],
          [4500, '47'],
        ]),
        // Shown among the Robux packages, but bought on the gift-card page.
        pkg('Roblox Gift Card (code)', 'بطاقة روبلوكس (رمز)', '10', { merge_to: 32 }),
      ],
    },
    game(5, 'Fortnite V-Bucks', 'فيباكس فورتنايت', 'V-Bucks', 'فيباكس', [
      [1000, '7.90'],
      [2800, '21.50'],
      [5000, '34.90'],
      [13500, '84'],
    ]),
    game(6, 'Valorant Points', 'نقاط فالورانت', 'VP', 'نقطة', [
      [475, '4.75'],
      [1000, '9.50'],
      [2050, '19'],
      [3650, '33'],
    ]),
    {
      ...game(7, 'Clash of Clans Gems', 'جواهر كلاش أوف كلانس', 'Gems', 'جوهرة', [
        [80, '0.95'],
        [500, '4.75'],
        [1200, '9.50'],
        [2500, '19'],
        [6500, '47'],
      ]),
    },
    game(8, 'Clash Royale Gems', 'جواهر كلاش رويال', 'Gems', 'جوهرة', [
      [80, '0.95'],
      [500, '4.75'],
      [1200, '9.50'],
    ]),
    game(9, 'Brawl Stars Gems', 'جواهر براول ستارز', 'Gems', 'جوهرة', [
      [30, '1.90'],
      [80, '4.75'],
      [170, '9.50'],
      [360, '19'],
    ]),
    game(10, 'Yalla Ludo Diamonds', 'جواهر يلا لودو', 'Diamonds', 'جوهرة', [
      [830, '4.90'],
      [2320, '12.90'],
      [5150, '27.50'],
    ]),
    game(11, '8 Ball Pool Cash', 'كاش بلياردو 8 بول بول', 'Cash', 'كاش', [
      [25, '2.90'],
      [50, '4.90'],
      [130, '9.90'],
    ]),
    {
      id: 12,
      number: 1,
      group_id: SOCIAL,
      name_en: 'TikTok Coins',
      name_ar: 'عملات تيك توك',
      note_en:
        'We sign in to your TikTok account to add the coins; you may change your password afterwards.',
      note_ar: 'نسجّل الدخول إلى حسابك على تيك توك لإضافة العملات، ويمكنك تغيير كلمة المرور بعدها.',
      company_price: '0.85',
      product_percentage: '5',
      is_tiktok: true,
      packages: amounts(
        'Coins',
        'عملة',
        [
          [70, '0.85'],
          [350, '4.20'],
          [700, '8.30'],
          [1400, '16.50'],
          [3500, '41'],
        ],
        () => ({ is_tiktok: true, maximum_qut: 5 }),
      ),
    },
    {
      ...game(13, 'League of Legends RP', 'نقاط رايوت ليج أوف ليجندز', 'RP', 'نقطة RP', [
        [575, '4.90'],
        [1380, '10.90'],
        [2800, '21.90'],
      ]),
      is_available: false,
    },
    game(14, 'Minecraft Minecoins', 'ماين كوينز ماينكرافت', 'Minecoins', 'ماين كوين', [
      [320, '1.99'],
      [1720, '9.99'],
      [3500, '19.99'],
    ]),
    game(15, 'EA SPORTS FC Mobile Points', 'نقاط EA SPORTS FC موبايل', 'FC Points', 'نقطة FC', [
      [100, '0.99'],
      [520, '4.90'],
      [1070, '9.80'],
      [2200, '19.50'],
    ]),
    game(16, 'Honor of Kings Tokens', 'توكنز هونر أوف كينغز', 'Tokens', 'توكن', [
      [80, '0.95'],
      [240, '2.85'],
      [400, '4.75'],
      [560, '6.65'],
    ]),

    // 2: social-media services (the form's tabs come from additional_services)
    {
      id: 17,
      number: 2,
      group_id: SOCIAL,
      name_en: 'Instagram Services',
      name_ar: 'خدمات إنستغرام',
      note_en: 'The account must be public while the order runs.',
      note_ar: 'يجب أن يكون الحساب عامًا طوال تنفيذ الطلب.',
      company_price: '0.002',
      product_percentage: '10',
      minimum_qut: 100,
      additional_services: [
        service('LIKES', '0.002', 100, ['Likes on one post.', 'إعجابات على منشور واحد.']),
        service('COMMENTS', '0.05', 10, ['Random positive comments.', 'تعليقات إيجابية عشوائية.']),
        service('VIEWS', '0.0005', 500, ['Views on a reel or video.', 'مشاهدات على ريل أو فيديو.']),
        service('FOLLOWERS', '0.004', 100, [
          'Followers with a 30-day refill.',
          'متابعون مع تعويض لمدة 30 يومًا.',
        ]),
      ],
    },
    {
      id: 18,
      number: 2,
      group_id: SOCIAL,
      name_en: 'TikTok Services',
      name_ar: 'خدمات تيك توك',
      company_price: '0.0015',
      product_percentage: '10',
      minimum_qut: 100,
      additional_services: [
        service('LIKES', '0.0015', 100, ['Likes on one video.', 'إعجابات على فيديو واحد.']),
        service('VIEWS', '0.0002', 1000, ['Views on one video.', 'مشاهدات على فيديو واحد.']),
        service('FOLLOWERS', '0.0035', 100, ['Followers of the profile.', 'متابعون للحساب.']),
        service('COMMENTS', '0.04', 10, [
          'Short comments in English.',
          'تعليقات قصيرة بالإنجليزية.',
        ]),
      ],
    },
    {
      ...social(19, 'Facebook Services', 'خدمات فيسبوك', [
        service('LIKES', '0.003', 100, [
          'Likes on a post or a page.',
          'إعجابات على منشور أو صفحة.',
        ]),
        service('FOLLOWERS', '0.005', 100, ['Page followers.', 'متابعون للصفحة.']),
        service('VIEWS', '0.0008', 500, ['Video views.', 'مشاهدات فيديو.']),
      ]),
      group_id: SOCIAL,
    },
    {
      ...social(20, 'YouTube Services', 'خدمات يوتيوب', [
        service('VIEWS', '0.0015', 500, [
          'Views from real-looking traffic.',
          'مشاهدات بحركة طبيعية.',
        ]),
        service('LIKES', '0.004', 50, ['Likes on one video.', 'إعجابات على فيديو واحد.']),
        service('COMMENTS', '0.08', 10, ['Comments on one video.', 'تعليقات على فيديو واحد.']),
      ]),
      group_id: SOCIAL,
    },
    social(21, 'X (Twitter) Services', 'خدمات إكس (تويتر)', [
      service('FOLLOWERS', '0.006', 100, ['Profile followers.', 'متابعون للحساب.']),
      service('LIKES', '0.004', 50, ['Likes on one post.', 'إعجابات على منشور واحد.']),
    ]),
    social(22, 'Telegram Services', 'خدمات تيليجرام', [
      service('FOLLOWERS', '0.003', 100, [
        'Channel or group members.',
        'أعضاء للقناة أو المجموعة.',
      ]),
      service('VIEWS', '0.0003', 500, ['Views on the latest posts.', 'مشاهدات على آخر المنشورات.']),
    ]),
    social(23, 'Snapchat Services', 'خدمات سناب شات', [
      service('FOLLOWERS', '0.008', 100, ['Friends and followers.', 'أصدقاء ومتابعون.']),
      service('VIEWS', '0.001', 500, ['Story views.', 'مشاهدات للقصص.']),
    ]),

    // 3: crypto (sec_company_price applies above 100 units)
    crypto(24, 'USDT (TRC20)', 'USDT (شبكة TRC20)', 'TRC20', '1.03', '1.015', 10),
    crypto(25, 'USDT (BEP20)', 'USDT (شبكة BEP20)', 'BEP20', '1.03', '1.015', 10),
    crypto(26, 'TRON (TRX)', 'ترون (TRX)', 'TRX', '0.27', '0.265', 50),

    // 4: gift cards and codes; requirement-driven orders
    giftCard(27, 'iTunes Gift Card (US)', 'بطاقة آيتونز (أمريكي)', 'iTunes', 'آيتونز', [
      [5, '5.25'],
      [10, '10.40'],
      [25, '25.90'],
      [50, '51.50'],
      [100, '102.50'],
    ]),
    giftCard(
      28,
      'Google Play Gift Card (US)',
      'بطاقة جوجل بلاي (أمريكي)',
      'Google Play',
      'جوجل بلاي',
      [
        [5, '5.30'],
        [10, '10.50'],
        [25, '26'],
        [50, '51.90'],
      ],
    ),
    giftCard(
      29,
      'PlayStation Store Card (US)',
      'بطاقة بلايستيشن ستور (أمريكي)',
      'PSN',
      'بلايستيشن',
      [
        [10, '10.45'],
        [20, '20.80'],
        [50, '51.75'],
        [100, '103'],
      ],
    ),
    giftCard(30, 'Xbox Gift Card (US)', 'بطاقة إكس بوكس (أمريكي)', 'Xbox', 'إكس بوكس', [
      [10, '10.45'],
      [25, '25.95'],
      [50, '51.75'],
    ]),
    giftCard(31, 'Steam Wallet Card (US)', 'بطاقة ستيم (أمريكي)', 'Steam', 'ستيم', [
      [5, '5.35'],
      [10, '10.60'],
      [20, '21'],
      [50, '52.40'],
      [100, '104.50'],
    ]),
    giftCard(32, 'Roblox Gift Card', 'بطاقة روبلوكس', 'Roblox', 'روبلوكس', [
      [10, '10'],
      [25, '25'],
      [50, '49.50'],
    ]),
    giftCard(
      33,
      'Razer Gold Gift Card (Global)',
      'بطاقة ريزر جولد (عالمية)',
      'Razer Gold',
      'ريزر جولد',
      [
        [5, '5.20'],
        [10, '10.35'],
        [20, '20.60'],
        [50, '51.25'],
      ],
    ),
    giftCard(34, 'Amazon Gift Card (US)', 'بطاقة أمازون (أمريكي)', 'Amazon', 'أمازون', [
      [10, '10.60'],
      [25, '26.40'],
      [50, '52.50'],
      [100, '104.90'],
    ]),
    giftCard(
      50,
      'Nintendo eShop Gift Card (US)',
      'بطاقة نينتندو إي شوب (أمريكي)',
      'eShop',
      'إي شوب',
      [
        [10, '10.50'],
        [20, '20.90'],
        [50, '52'],
      ],
    ),
    giftCard(51, 'Binance Gift Card (USDT)', 'بطاقة هدايا بينانس (USDT)', 'Binance', 'بينانس', [
      [10, '10.30'],
      [25, '25.70'],
      [50, '51.30'],
      [100, '102.50'],
    ]),
    giftCard(
      52,
      'Noon Gift Card (UAE)',
      'بطاقة نون (إماراتي)',
      'Noon',
      'نون',
      [
        [50, '14.20'],
        [100, '28.20'],
        [250, '70'],
      ],
      ['AED', 'درهم'],
    ),
    giftCard(
      53,
      'Visa Virtual Prepaid Card (US)',
      'بطاقة فيزا افتراضية مسبقة الدفع (أمريكي)',
      'Visa',
      'فيزا',
      [
        [10, '11.50'],
        [25, '27.50'],
        [50, '54'],
      ],
    ),
    giftCard(54, 'Netflix Gift Card (US)', 'بطاقة نتفليكس (أمريكي)', 'Netflix', 'نتفليكس', [
      [25, '26.50'],
      [50, '52.50'],
    ]),
    giftCard(55, 'Spotify Gift Card (US)', 'بطاقة سبوتيفاي (أمريكي)', 'Spotify', 'سبوتيفاي', [
      [10, '10.60'],
      [30, '31.50'],
      [60, '62.50'],
    ]),
    {
      id: 35,
      number: 4,
      group_id: POPULAR,
      name_en: 'Mobile Legends Diamonds',
      name_ar: 'جواهر موبايل ليجندز',
      note_en: 'Find your player ID and server (zone) ID on your profile in the game.',
      note_ar: 'تجد معرّف اللاعب ورقم السيرفر في ملفك الشخصي داخل اللعبة.',
      company_price: '1.45',
      product_percentage: '5',
      requirements: [playerId, server],
      player_numbers: ['player_id'],
      packages: amounts('Diamonds', 'جوهرة', [
        [86, '1.45'],
        [172, '2.90'],
        [257, '4.35'],
        [706, '11.50'],
        [2195, '34.50'],
      ]),
    },
    {
      id: 36,
      number: 4,
      name_en: 'Genshin Impact Genesis Crystals',
      name_ar: 'كريستالات جينشن إمباكت',
      company_price: '0.95',
      product_percentage: '5',
      requirements: [
        { name: 'uid', label_en: 'UID', label_ar: 'المعرّف UID' },
        {
          name: 'server',
          label_en: 'Server (America, Europe, Asia, TW/HK/MO)',
          label_ar: 'السيرفر (أمريكا، أوروبا، آسيا، تايوان/هونغ كونغ/ماكاو)',
        },
      ],
      packages: [
        ...amounts('Genesis Crystals', 'كريستالة', [
          [60, '0.95'],
          [330, '4.75'],
          [1090, '14.50'],
          [2240, '29'],
          [3880, '47.50'],
          [8080, '95'],
        ]),
        pkg('Blessing of the Welkin Moon', 'مباركة القمر', '4.75', {
          type: 'subscription',
          maximum_qut: 1,
          requirements: [{ name: 'uid', label_en: 'UID', label_ar: 'المعرّف UID' }],
        }),
      ],
    },

    // 5: apps and subscriptions
    {
      id: 37,
      number: 5,
      name_en: 'Netflix Subscription',
      name_ar: 'اشتراك نتفليكس',
      note_en: 'A ready account is delivered with the order; do not change its password.',
      note_ar: 'يُسلَّم حساب جاهز مع الطلب، يُرجى عدم تغيير كلمة المرور.',
      images: gallery(2),
      company_price: '4.50',
      product_percentage: '8',
      packages: months([
        ['Basic – 1 month', 'الأساسية – شهر واحد', '4.50'],
        ['Standard – 1 month', 'القياسية – شهر واحد', '8.50'],
        ['Premium – 1 month', 'المميزة – شهر واحد', '12.50'],
      ]),
    },
    subscription(38, 'Spotify Premium', 'سبوتيفاي بريميوم', [
      ['Individual – 1 month', 'فردي – شهر واحد', '5.50'],
      ['Individual – 3 months', 'فردي – 3 أشهر', '15.90'],
      ['Individual – 12 months', 'فردي – 12 شهرًا', '59'],
    ]),
    subscription(39, 'Shahid VIP', 'شاهد VIP', [
      ['VIP – 1 month', 'VIP – شهر واحد', '4.90'],
      ['VIP – 3 months', 'VIP – 3 أشهر', '13.90'],
      ['VIP – 12 months', 'VIP – 12 شهرًا', '49'],
    ]),
    subscription(40, 'Anghami Plus', 'أنغامي بلس', [
      ['Plus – 1 month', 'بلس – شهر واحد', '4.99'],
      ['Plus – 12 months', 'بلس – 12 شهرًا', '49.99'],
    ]),
    subscription(41, 'YouTube Premium', 'يوتيوب بريميوم', [
      ['Individual – 1 month', 'فردي – شهر واحد', '6.50'],
      ['Family – 1 month', 'عائلي – شهر واحد', '11.90'],
    ]),
    subscription(42, 'Canva Pro', 'كانفا برو', [
      ['Pro – 1 month', 'برو – شهر واحد', '7.90'],
      ['Pro – 12 months', 'برو – 12 شهرًا', '59'],
    ]),
    {
      ...subscription(43, 'OSN+', 'أو إس إن بلس', [
        ['OSN+ – 1 month', 'أو إس إن بلس – شهر واحد', '5.90'],
        ['OSN+ – 12 months', 'أو إس إن بلس – 12 شهرًا', '59'],
      ]),
      force_unavailable: true,
    },

    // 6: token products (bought by quantity; the price uses company_percentage too)
    {
      id: 44,
      number: 6,
      name_en: 'Jawaker Tokens',
      name_ar: 'توكنز جواكر',
      note_en: 'Tokens are sent to the Jawaker ID you enter.',
      note_ar: 'تُرسَل التوكنز إلى معرّف جواكر الذي تدخله.',
      istoken: true,
      company_price: '0.0001',
      company_percentage: '3',
      product_percentage: '5',
      minimum_qut: 10000,
      maximum_qut: 10000000,
      minimum_qut_note_en: 'At least 10,000 tokens',
      minimum_qut_note_ar: '10,000 توكنز على الأقل',
      require_player_number: true,
    },
    {
      id: 45,
      number: 6,
      name_en: 'Bigo Live Diamonds',
      name_ar: 'ماسات بيغو لايف',
      istoken: true,
      company_price: '0.021',
      company_percentage: '2',
      product_percentage: '4',
      minimum_qut: 50,
      maximum_qut: 100000,
      minimum_qut_note_en: 'At least 50 diamonds',
      minimum_qut_note_ar: '50 ماسة على الأقل',
      require_player_number: true,
    },

    // 7: mobile recharge
    recharge(46, 'Alfa Recharge Cards', 'بطاقات تشريج ألفا', 'Alfa', 'ألفا'),
    recharge(47, 'Touch Recharge Cards', 'بطاقات تشريج تاتش', 'Touch', 'تاتش'),
    transfer(48, 'Alfa Credit Transfer', 'تحويل رصيد ألفا', 'Alfa', 'ألفا'),
    transfer(49, 'Touch Credit Transfer', 'تحويل رصيد تاتش', 'Touch', 'تاتش'),
  ]

  function game(
    id: number,
    name_en: string,
    name_ar: string,
    unitEn: string,
    unitAr: string,
    list: [number, string][],
  ): ProductInput {
    return {
      id,
      number: 1,
      name_en,
      name_ar,
      company_price: list[0]![1],
      product_percentage: '5',
      require_player_number: true,
      packages: amounts(unitEn, unitAr, list),
    }
  }
  function social(id: number, name_en: string, name_ar: string, services: ServiceInput[]) {
    return {
      id,
      number: 2,
      name_en,
      name_ar,
      company_price: services[0]!.company_price,
      product_percentage: '10',
      minimum_qut: 50,
      additional_services: services,
    } satisfies ProductInput
  }
  function crypto(
    id: number,
    name_en: string,
    name_ar: string,
    network: string,
    price: string,
    secPrice: string,
    minimum: number,
  ): ProductInput {
    return {
      id,
      number: 3,
      name_en,
      name_ar,
      note_en: `Sent on the ${network} network. Check the wallet address twice: transfers cannot be reversed.`,
      note_ar: `يُرسَل عبر شبكة ${network}. تحقّق من عنوان المحفظة مرتين، فالتحويلات لا يمكن استرجاعها.`,
      company_price: price,
      sec_company_price: secPrice,
      product_percentage: '1.5',
      minimum_qut: minimum,
      maximum_qut: 5000,
      minimum_qut_note_en: `Minimum ${minimum}`,
      minimum_qut_note_ar: `الحد الأدنى ${minimum}`,
      product_reference: network,
    }
  }
  function giftCard(
    id: number,
    name_en: string,
    name_ar: string,
    shortEn: string,
    shortAr: string,
    list: [number, string][],
    currency?: [string, string],
  ): ProductInput {
    return {
      id,
      number: 4,
      name_en,
      name_ar,
      note_en: 'The code appears in your order as soon as it is completed.',
      note_ar: 'يظهر الرمز في طلبك فور اكتماله.',
      company_price: list[0]![1],
      product_percentage: '3',
      packages: cards(shortEn, shortAr, list, currency),
    }
  }
  function subscription(
    id: number,
    name_en: string,
    name_ar: string,
    plans: [string, string, string][],
  ): ProductInput {
    return {
      id,
      number: 5,
      name_en,
      name_ar,
      company_price: plans[0]![2],
      product_percentage: '8',
      requirements: [
        { name: 'email', label_en: 'Account e-mail', label_ar: 'البريد الإلكتروني للحساب' },
      ],
      packages: months(plans),
    }
  }
  function recharge(id: number, name_en: string, name_ar: string, en: string, ar: string) {
    return {
      id,
      number: 7,
      name_en,
      name_ar,
      note_en: `Prepaid ${en} cards: the code is delivered with the order.`,
      note_ar: `بطاقات ${ar} مسبقة الدفع: يُسلَّم الرمز مع الطلب.`,
      company_price: '4.50',
      product_percentage: '2',
      packages: ['4.50', '7.58', '15.15', '22.73', '77.28'].map((value) =>
        pkg(`${en} $${value}`, `${ar} ${value}$`, value, { type: 'code' }),
      ),
    } satisfies ProductInput
  }
  function transfer(id: number, name_en: string, name_ar: string, en: string, ar: string) {
    const mobile = { name: 'mobile_number', label_en: `${en} number`, label_ar: `رقم ${ar}` }
    return {
      id,
      number: 7,
      name_en,
      name_ar,
      note_en: `Credit is transferred to the ${en} line you enter, in dollars.`,
      note_ar: `يُحوَّل الرصيد بالدولار إلى خط ${ar} الذي تدخله.`,
      company_price: '1.05',
      product_percentage: '2',
      minimum_qut: 1,
      maximum_qut: 50,
      requirements: [mobile],
      // The only entry, and not of type "package": the storefront shows the direct form.
      packages: [
        pkg(`${en} credit (any amount)`, `رصيد ${ar} (أي مبلغ)`, '1.05', {
          type: 'direct',
          minimum_qut: 1,
          maximum_qut: 50,
        }),
      ],
    } satisfies ProductInput
  }

  return {
    format: CATALOGUE_FORMAT,
    version: CATALOGUE_VERSION,
    groups: [
      { id: POPULAR, name_en: 'Popular games', name_ar: 'الألعاب الأكثر رواجًا' },
      { id: SOCIAL, name_en: 'Social media', name_ar: 'وسائل التواصل الاجتماعي' },
    ],
    // Packages are priced with their product's percentages unless they say otherwise.
    products: products.map((p) => ({
      ...p,
      packages: p.packages?.map((entry) => ({
        company_percentage: p.company_percentage,
        product_percentage: p.product_percentage,
        ...entry,
      })),
    })),
  }
}

/**
 * Loads the demo catalogue once per database, in the caller's transaction: the guard row
 * comes first, so instances starting together on one PostgreSQL seed it once. A store whose
 * catalogue was imported before (or that has products) is left alone.
 */
export async function seedDemoCatalogue(db: Kysely<Database>, now = new Date()): Promise<boolean> {
  if (!db.isTransaction) return db.transaction().execute((trx) => seedDemoCatalogue(trx, now))
  const claimed = await db
    .insertInto('meta')
    .values({ key: CATALOGUE_SEED_META_KEY, value: now.toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst()
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return false
  const existing = await db.selectFrom('products').select('id').limit(1).executeTakeFirst()
  if (existing) return false
  await replaceCatalogue(db as Transaction<Database>, checkCatalogue(demoCatalogue()))
  return true
}
