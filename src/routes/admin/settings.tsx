import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/settings')({
  component: function Settings() {
    return (
      <ConsoleScreen>
        <Screens.Settings />
      </ConsoleScreen>
    )
  },
})
