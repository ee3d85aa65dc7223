import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/top-ups')({
  component: function TopUps() {
    return (
      <ConsoleScreen>
        <Screens.TopUps />
      </ConsoleScreen>
    )
  },
})
