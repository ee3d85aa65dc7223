import { notFound } from '@tanstack/react-router'

/** Ids in URLs (a product number 1-7 where there is one) are numbers; anything else is not found. */
export function catalogueId(params: { id: string; number?: string }): number {
  const valid =
    /^\d{1,10}$/.test(params.id) && (params.number === undefined || /^[1-7]$/.test(params.number))
  if (!valid) throw notFound()
  return Number(params.id)
}
