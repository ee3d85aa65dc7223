import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { websiteInfoQuery } from '../api/website-info'
import { applyWebsiteInfo } from '../theme/apply'

/** Applies website info to the theme whenever it arrives or changes. */
export function ThemeSync() {
  const { data, error } = useQuery(websiteInfoQuery())
  useEffect(() => {
    if (data) applyWebsiteInfo(data)
  }, [data])
  useEffect(() => {
    if (error) console.warn('Website info could not be loaded; keeping the default theme', error)
  }, [error])
  return null
}
