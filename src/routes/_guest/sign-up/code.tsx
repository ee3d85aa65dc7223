import { createFileRoute } from '@tanstack/react-router'
import { CodePage } from '../../../features/auth/code-page'

export const Route = createFileRoute('/_guest/sign-up/code')({
  component: () => <CodePage kind="sign-up" />,
})
