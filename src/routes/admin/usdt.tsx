import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/usdt')({
  component: function Usdt() {
    return (
      <ConsoleScreen>
        <Screens.Usdt />
      </ConsoleScreen>
    )
  },
})
