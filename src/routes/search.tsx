import { createFileRoute } from '@tanstack/react-router'
import { SearchPage } from '../features/catalogue/search-page'
import { pageParam, textParam, type SearchInput } from './-search'

export const Route = createFileRoute('/search')({
  validateSearch: (search: SearchInput<{ q: string; page: number }>) => ({
    q: textParam(search.q),
    page: pageParam(search.page),
  }),
  component: function Search() {
    const { q, page } = Route.useSearch()
    return <SearchPage q={q.trim()} page={page} />
  },
})
