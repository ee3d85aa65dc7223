import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/top-ups')({
  component: function TopUps() {
    return <ConsoleScreen screen="top-ups" />
  },
})
