import { ConsoleGate } from './console-gate'
import { SettingsPage } from './settings-page'
import { TodayPage } from './today-page'
import { TopUpsPage } from './top-ups-page'
import { UsdtPage } from './usdt-page'

const SCREENS = {
  today: TodayPage,
  'top-ups': TopUpsPage,
  usdt: UsdtPage,
  settings: SettingsPage,
}

/** A console screen behind the console's sign-in: what its route renders, or the first page. */
export function ConsoleScreen({ screen }: { screen: keyof typeof SCREENS }) {
  const Screen = SCREENS[screen]
  return (
    <ConsoleGate>
      <Screen />
    </ConsoleGate>
  )
}
