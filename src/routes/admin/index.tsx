import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

/**
 * The operator console (docs/api.md, Console): its own sign-in and session, whoever is signed
 * in to the store; loaded only when opened.
 */
export const Route = createFileRoute('/admin/')({
  component: function Today() {
    return (
      <ConsoleScreen>
        <Screens.Today />
      </ConsoleScreen>
    )
  },
})
