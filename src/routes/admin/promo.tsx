import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/promo')({
  component: function Promo() {
    return <ConsoleScreen screen="promo" />
  },
})
