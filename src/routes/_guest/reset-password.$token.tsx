import { createFileRoute } from '@tanstack/react-router'
import { ResetLinkPage } from '../../features/auth/recovery-pages'

export const Route = createFileRoute('/_guest/reset-password/$token')({
  component: function ResetLink() {
    const { token } = Route.useParams()
    return <ResetLinkPage token={token} />
  },
})
