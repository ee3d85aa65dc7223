import { ConsoleGate } from './console-gate'
import { TodayPage } from './today-page'
import { TopUpsPage } from './top-ups-page'

/** A console screen behind the console's sign-in: what its route renders, or the first page. */
export function ConsoleScreen({ screen }: { screen: 'today' | 'top-ups' }) {
  return <ConsoleGate>{screen === 'today' ? <TodayPage /> : <TopUpsPage />}</ConsoleGate>
}
