import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '../../../features/auth/sign-in-page'
import { signInSearch } from '../../-search'

export const Route = createFileRoute('/_guest/sign-in/')({
  validateSearch: signInSearch,
  component: function SignIn() {
    const { redirect, reset } = Route.useSearch()
    return <SignInPage redirect={redirect} reset={reset === 1} />
  },
})
