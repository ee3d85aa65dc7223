import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '../../../features/auth/sign-in-page'
import { optionalParam, type SearchInput } from '../../-search'

export const Route = createFileRoute('/_guest/sign-in/')({
  validateSearch: (search: SearchInput<{ redirect: string; reset: number }>) => ({
    redirect: optionalParam('redirect', search.redirect, 'string'),
    reset: optionalParam('reset', search.reset, 'number'),
  }),
  component: function SignIn() {
    const { redirect, reset } = Route.useSearch()
    return <SignInPage redirect={redirect} reset={reset === 1} />
  },
})
