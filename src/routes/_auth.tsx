import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'

/** The customer's own pages need a token; without one, sign in and come back. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: ({ context, location }) => {
    if (!context.auth.isSignedIn())
      throw redirect({ to: '/sign-in', search: { redirect: location.href } })
  },
  component: Outlet,
})
