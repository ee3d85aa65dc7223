import { HomeGrid } from '../features/catalogue/home-grid'
import { HomeGroups } from '../features/catalogue/home-groups'
import { HomeSlider } from '../features/site/home-slider'

/**
 * Home: the slider, the catalogue's groups, then its products, growing as the customer scrolls.
 */
export function HomePage() {
  return (
    <>
      <HomeSlider />
      <HomeGroups />
      <HomeGrid />
    </>
  )
}
