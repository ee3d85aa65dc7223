import { createFileRoute } from '@tanstack/react-router'
import { SearchPage } from '../features/catalogue/search-page'
import { searchPageSearch } from './-search'

export const Route = createFileRoute('/search')({
  validateSearch: searchPageSearch,
  component: function Search() {
    const { q, page } = Route.useSearch()
    return <SearchPage q={q.trim()} page={page} />
  },
})
