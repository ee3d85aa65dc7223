import { createFileRoute } from '@tanstack/react-router'
import { CodePage } from '../../../features/auth/code-page'
import { optionalParam, type SearchInput } from '../../-search'

export const Route = createFileRoute('/_guest/sign-in/code')({
  validateSearch: (search: SearchInput<{ redirect: string }>) => ({
    redirect: optionalParam('redirect', search.redirect, 'string'),
  }),
  component: function SignInCode() {
    const { redirect } = Route.useSearch()
    return <CodePage kind="sign-in" redirect={redirect} />
  },
})
