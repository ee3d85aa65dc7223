import { createFileRoute } from '@tanstack/react-router'
import { VerificationCodePage } from '../../features/auth/recovery-pages'

export const Route = createFileRoute('/_guest/verification-code')({
  component: VerificationCodePage,
})
