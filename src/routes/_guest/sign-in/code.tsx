import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { CodePage } from '../../../features/auth/code-page'

export const Route = createFileRoute('/_guest/sign-in/code')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  component: function SignInCode() {
    const { redirect } = Route.useSearch()
    return <CodePage kind="sign-in" redirect={redirect} />
  },
})
