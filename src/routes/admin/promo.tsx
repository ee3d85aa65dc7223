import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/promo')({
  component: function Promo() {
    return (
      <ConsoleScreen>
        <Screens.Promo />
      </ConsoleScreen>
    )
  },
})
