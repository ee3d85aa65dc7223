import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '../../../features/auth/sign-in-page'

const Search = v.object({
  redirect: v.optional(v.string()),
  reset: v.optional(v.number()),
})

export const Route = createFileRoute('/_guest/sign-in/')({
  validateSearch: Search,
  component: function SignIn() {
    const { redirect, reset } = Route.useSearch()
    return <SignInPage redirect={redirect} reset={reset === 1} />
  },
})
