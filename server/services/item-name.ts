import type { Locale } from '../../src/contract/common'
import type { OrderRow } from '../db/schema'
import { localized } from '../i18n'

/** What was bought, in words: "PUBG Mobile UC — 60 UC". */
export function itemName(
  order: Pick<
    OrderRow,
    'product_name_en' | 'product_name_ar' | 'package_name_en' | 'package_name_ar'
  >,
  locale: Locale,
): string {
  const product = localized(locale, order.product_name_en, order.product_name_ar)
  const pkg =
    order.package_name_en === null
      ? null
      : localized(locale, order.package_name_en, order.package_name_ar)
  return pkg ? `${product} — ${pkg}` : product
}
