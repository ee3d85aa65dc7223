import { createFileRoute } from '@tanstack/react-router'
import { Forbidden } from '../app/not-found'

export const Route = createFileRoute('/403')({ component: Forbidden })
