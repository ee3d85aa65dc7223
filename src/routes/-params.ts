import { notFound } from '@tanstack/react-router'

/** Catalogue URLs carry a product number 1-7 and a numeric id; anything else is not found. */
export function catalogueId(params: { id: string; number?: string }): number {
  const valid =
    /^\d{1,10}$/.test(params.id) && (params.number === undefined || /^[1-7]$/.test(params.number))
  if (!valid) throw notFound()
  return Number(params.id)
}
