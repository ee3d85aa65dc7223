import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '../../ui/nav'
import { useLingui } from '@lingui/react/macro'
import { profileQuery } from '../../api/profile'
import { USER_KEY } from '../../api/session'
import { useToken } from '../../api/token'
import { websiteInfoQuery } from '../../api/website-info'
import { toMicros } from '../../domain/money'
import { ORDER_QUANTITY_MAX } from '../../contract/orders'
import { formKind, isFreeFire, minimumOf, needsPlayerNumber } from '../../domain/ordering'
import { convertFromUsd, orderTotal, unitPrice } from '../../domain/pricing'
import { priceFor, type Purchasable } from './item'
import { orderBody } from './order-body'
import { lookupPlayer, orderingQueries, placeOrder } from './queries'
import { emptyValues, firstProblem, type OrderValues } from './rules'

const DEFAULT_LBP_RATE = 89_500

export interface PlayerState {
  /** The number the last successful lookup was for. */
  verified: string | null
  name: string | null
  error: string | null
}

const NO_PLAYER: PlayerState = { verified: null, name: null, error: null }

/**
 * The state of one purchase form: what was typed, the player lookup, the price in the
 * customer's currency, and the steps Buy -> confirm -> order.
 */
export function usePurchaseForm(item: Purchasable) {
  const { t } = useLingui()
  const token = useToken()
  const navigate = useAppNavigate()
  const queryClient = useQueryClient()
  const { terms } = item
  const { data: profile } = useQuery({ ...profileQuery(), enabled: !!token })
  const { data: info } = useQuery(websiteInfoQuery())
  const [values, setValues] = useState<OrderValues>(() => emptyValues(terms))
  const [player, setPlayer] = useState<PlayerState>(NO_PLAYER)
  const [problem, setProblem] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [checkoutKey, setCheckoutKey] = useState('')

  // The customer's last verified player number pre-fills the field, once.
  const wantsPlayer = needsPlayerNumber(terms)
  const saved = useQuery({
    ...orderingQueries.playerNumber(item.productId),
    enabled: !!token && wantsPlayer,
  })
  const [prefilled, setPrefilled] = useState(false)
  if (!prefilled && saved.data !== undefined) {
    setPrefilled(true)
    if (saved.data && !values.player_number)
      setValues((old) => ({ ...old, player_number: saved.data }))
  }

  const lookup = useMutation({
    mutationFn: (number: string) => lookupPlayer(item, number),
    onSuccess: (reply, number) =>
      setPlayer({ verified: number, name: reply.data.username, error: null }),
    onError: (error) => setPlayer({ ...NO_PLAYER, error: error.message }),
  })

  const order = useMutation({
    mutationFn: () =>
      placeOrder(orderBody(item, values, player.name), checkoutKey, player.name ?? undefined),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: USER_KEY })
      void navigate({ to: '/Orders' })
    },
    onError: (error) => {
      setConfirming(false)
      setProblem(error.message)
    },
  })

  const set = (field: string) => (value: string) => setValues((old) => ({ ...old, [field]: value }))
  const setPlayerNumber = (value: string) => {
    set('player_number')(value)
    // Changing the number invalidates the lookup.
    setPlayer(NO_PLAYER)
  }

  // Prices: the one rule of src/domain/pricing.ts, in the customer's currency.
  const account = profile?.type ?? 'CUSTOMER'
  const currency = profile?.currency ?? 'USD'
  const lbpRate = info?.lbp_rate ?? DEFAULT_LBP_RATE
  const typed = isFreeFire(terms) ? 1 : Number(values.quantity || 0)
  const quantity = Number.isSafeInteger(typed) && typed <= ORDER_QUANTITY_MAX ? typed : 0
  const price = priceFor(item, values.service_type)
  const crypto = formKind(terms) === 'crypto'
  const unit = convertFromUsd(unitPrice(price, account, { crypto, quantity }), lbpRate, currency)
  const total = orderTotal(price, account, { crypto, quantity, currency, lbpRate })
  const minimum = minimumOf(terms, values.service_type)
  const belowMinimum = !isFreeFire(terms) && values.quantity !== '' && typed < minimum

  const openConfirmation = () => {
    setProblem(null)
    // One checkout, one key: a retry or a double click can never place a second order.
    setCheckoutKey(globalThis.crypto.randomUUID())
    setConfirming(true)
  }

  const confirm = () => {
    if (order.isPending) return
    const found = firstProblem(terms, values, player.verified)
    if (found) {
      setConfirming(false)
      setProblem(found)
      return
    }
    if (!navigator.onLine) {
      // A payment is never queued: offline, the order fails at once.
      setConfirming(false)
      setProblem(t`You are offline. Connect to the internet to place this order.`)
      return
    }
    order.mutate()
  }

  return {
    signedIn: !!token,
    values,
    set,
    setPlayerNumber,
    player,
    lookup,
    problem,
    confirming,
    setConfirming: (open: boolean) => !order.isPending && setConfirming(open),
    openConfirmation,
    confirm,
    placing: order.isPending,
    currency,
    balance: profile ? toMicros(profile.balance) : null,
    quantity,
    unit,
    total,
    minimum,
    belowMinimum,
  }
}

export type PurchaseFormState = ReturnType<typeof usePurchaseForm>
