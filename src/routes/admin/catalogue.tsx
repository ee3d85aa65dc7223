import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/catalogue')({
  component: function Catalogue() {
    return (
      <ConsoleScreen>
        <Screens.Catalogue />
      </ConsoleScreen>
    )
  },
})
