import { createFileRoute } from '@tanstack/react-router'
import { ConsoleScreen } from '../../features/console/console-screen'

export const Route = createFileRoute('/admin/catalogue')({
  component: function Catalogue() {
    return <ConsoleScreen screen="catalogue" />
  },
})
