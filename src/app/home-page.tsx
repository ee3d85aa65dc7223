import { HomeGrid } from '../features/catalogue/home-grid'
import { HomeSlider } from '../features/site/home-slider'

/** Home: the slider, then the catalogue's products, growing as the customer scrolls. */
export function HomePage() {
  return (
    <>
      <HomeSlider />
      <HomeGrid />
    </>
  )
}
