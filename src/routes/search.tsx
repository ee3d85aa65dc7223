import * as v from 'valibot'
import { createFileRoute } from '@tanstack/react-router'
import { SearchPage } from '../features/catalogue/search-page'

const SearchParams = v.object({
  q: v.fallback(v.string(), ''),
  page: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
})

export const Route = createFileRoute('/search')({
  validateSearch: SearchParams,
  component: function Search() {
    const { q, page } = Route.useSearch()
    return <SearchPage q={q.trim()} page={page} />
  },
})
