import { createFileRoute } from '@tanstack/react-router'
import { ForgotPasswordPage } from '../../features/auth/recovery-pages'

export const Route = createFileRoute('/_guest/forget-password')({ component: ForgotPasswordPage })
