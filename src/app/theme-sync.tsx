import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { siteQueries } from '../features/site/queries'
import { applyWebsiteInfo } from '../theme/apply'

/** Applies website info to the theme whenever it arrives or changes. */
export function ThemeSync() {
  const { data, error } = useQuery(siteQueries.websiteInfo())
  useEffect(() => {
    if (data) applyWebsiteInfo(data)
  }, [data])
  useEffect(() => {
    if (error) console.warn('Website info could not be loaded; keeping the default theme', error)
  }, [error])
  return null
}
