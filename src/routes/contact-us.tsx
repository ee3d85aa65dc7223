import { createFileRoute } from '@tanstack/react-router'
import { ContactPage } from '../features/site/contact-page'

/** Also reached as /Contact-us: the router matches paths without regard to case. */
export const Route = createFileRoute('/contact-us')({ component: ContactPage })
