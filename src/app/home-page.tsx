import { useQuery } from '@tanstack/react-query'
import { websiteInfoQuery } from '../api/website-info'
import { HomeGrid } from '../features/catalogue/home-grid'
import { HomeGroups } from '../features/catalogue/home-groups'
import { HomeSlider } from '../features/site/home-slider'
import { visuallyHidden } from '../ui/visually-hidden.css'

/**
 * Home: the slider, the catalogue's groups, then its products, growing as the customer scrolls.
 * Its heading, the store's name, is for screen readers: the logo shows it above.
 */
export function HomePage() {
  const { data: info } = useQuery(websiteInfoQuery())
  return (
    <>
      {info && <h1 className={visuallyHidden}>{info.website_name}</h1>}
      <HomeSlider />
      <HomeGroups />
      <HomeGrid />
    </>
  )
}
