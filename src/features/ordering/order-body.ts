import type { FormBody } from '../../api/client'
import type { OrderBody } from '../../contract/orders'
import { formFields } from '../../domain/ordering'
import type { Purchasable } from './item'
import type { OrderValues } from './rules'

/**
 * What Buy sends: the item, and the fields its form has (nothing the form does not show), as
 * typed; the quantity as `qty`, the looked-up player's name with the number.
 */
export function orderBody(
  item: Purchasable,
  values: OrderValues,
  playerName: string | null,
): FormBody<OrderBody> {
  const body: FormBody<OrderBody> = {
    [item.terms.target === 'package' ? 'package_id' : 'product_id']: item.id,
    product_reference: item.productReference ?? undefined,
  }
  for (const field of formFields(item.terms)) {
    if (field === 'quantity') body.qty = Number(values.quantity || 0)
    else if (field === 'player_name') body.player_name = playerName ?? undefined
    else body[field] = values[field]?.trim()
  }
  return body
}
