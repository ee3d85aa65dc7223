import { createFileRoute } from '@tanstack/react-router'
import { SetPasswordPage } from '../../features/auth/recovery-pages'

export const Route = createFileRoute('/_guest/set-password')({ component: SetPasswordPage })
