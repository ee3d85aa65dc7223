import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/usdt')({
  component: function Usdt() {
    return <ConsoleScreen screen="usdt" />
  },
})
