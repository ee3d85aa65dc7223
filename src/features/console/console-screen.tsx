import { lazy, Suspense, type ReactNode } from 'react'
import { Loading } from '../../ui/load-problem'
import { ConsoleGate } from './console-gate'

/**
 * Each screen in a chunk of its own, loaded once the console's sign-in has passed: a console
 * route's first load is the gate, and opening one screen loads no other.
 */
export const Screens = {
  Today: lazy(() => import('./today-page').then(({ TodayPage }) => ({ default: TodayPage }))),
  TopUps: lazy(() => import('./top-ups-page').then(({ TopUpsPage }) => ({ default: TopUpsPage }))),
  Usdt: lazy(() => import('./usdt-page').then(({ UsdtPage }) => ({ default: UsdtPage }))),
  Settings: lazy(() =>
    import('./settings-page').then(({ SettingsPage }) => ({ default: SettingsPage })),
  ),
  Catalogue: lazy(() =>
    import('./catalogue-page').then(({ CataloguePage }) => ({ default: CataloguePage })),
  ),
  Slider: lazy(() => import('./slider-page').then(({ SliderPage }) => ({ default: SliderPage }))),
  Promo: lazy(() => import('./promo-page').then(({ PromoPage }) => ({ default: PromoPage }))),
  Orders: lazy(() => import('./orders-page').then(({ OrdersPage }) => ({ default: OrdersPage }))),
  Order: lazy(() => import('./order-page').then(({ OrderPage }) => ({ default: OrderPage }))),
  Customers: lazy(() =>
    import('./customers-page').then(({ CustomersPage }) => ({ default: CustomersPage })),
  ),
  Customer: lazy(() =>
    import('./customer-page').then(({ CustomerPage }) => ({ default: CustomerPage })),
  ),
  Audit: lazy(() => import('./audit-page').then(({ AuditPage }) => ({ default: AuditPage }))),
}

/** A console screen (one of `Screens`, with what its route reads) behind the console's sign-in. */
export function ConsoleScreen({ children }: { children: ReactNode }) {
  return (
    <ConsoleGate>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ConsoleGate>
  )
}
