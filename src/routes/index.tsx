import { createFileRoute } from '@tanstack/react-router'
import { HomeSlider } from '../features/site/home-slider'
import { siteQueries } from '../features/site/queries'

export const Route = createFileRoute('/')({
  loader: ({ context }) => {
    // Start the slider with the navigation; the page renders its skeleton meanwhile.
    void context.queryClient.prefetchQuery(siteQueries.slider())
  },
  component: HomeSlider,
})
