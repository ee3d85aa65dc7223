import { lazy, Suspense } from 'react'
import { Loading } from '../../ui/load-problem'
import { ConsoleGate } from './console-gate'

/** Each screen in a chunk of its own: opening one console screen loads no other. */
const SCREENS = {
  today: lazy(() => import('./today-page').then(({ TodayPage }) => ({ default: TodayPage }))),
  'top-ups': lazy(() =>
    import('./top-ups-page').then(({ TopUpsPage }) => ({ default: TopUpsPage })),
  ),
  usdt: lazy(() => import('./usdt-page').then(({ UsdtPage }) => ({ default: UsdtPage }))),
  settings: lazy(() =>
    import('./settings-page').then(({ SettingsPage }) => ({ default: SettingsPage })),
  ),
  catalogue: lazy(() =>
    import('./catalogue-page').then(({ CataloguePage }) => ({ default: CataloguePage })),
  ),
  promo: lazy(() => import('./promo-page').then(({ PromoPage }) => ({ default: PromoPage }))),
}

/** A console screen behind the console's sign-in: what its route renders, or the first page. */
export function ConsoleScreen({ screen }: { screen: keyof typeof SCREENS }) {
  const Screen = SCREENS[screen]
  return (
    <ConsoleGate>
      <Suspense fallback={<Loading />}>
        <Screen />
      </Suspense>
    </ConsoleGate>
  )
}
