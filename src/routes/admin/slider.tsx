import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen, Screens } from '../../features/console/console-screen'

/** The home page's slider in the console's catalogue (docs/api.md, Console). */
export const Route = createFileRoute('/admin/slider')({
  component: function Slider() {
    return (
      <ConsoleScreen>
        <Screens.Slider />
      </ConsoleScreen>
    )
  },
})
