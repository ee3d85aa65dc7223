import { createFileRoute, redirect } from '@tanstack/react-router'

/** The catalogue's home is the product grid on the home page. */
export const Route = createFileRoute('/products/')({
  beforeLoad: () => {
    throw redirect({ to: '/' })
  },
})
