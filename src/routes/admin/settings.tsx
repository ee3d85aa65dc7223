import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/settings')({
  component: function Settings() {
    return <ConsoleScreen screen="settings" />
  },
})
