import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'

/** Sign-in, sign-up and recovery: a signed-in customer who opens them goes home. */
export const Route = createFileRoute('/_guest')({
  beforeLoad: ({ context }) => {
    if (context.auth.isSignedIn()) throw redirect({ to: '/' })
  },
  component: Outlet,
})
