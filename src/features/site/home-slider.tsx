import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { siteQueries } from './queries'
import { Slider, SliderSkeleton } from './slider'

export function HomeSlider() {
  const { t } = useLingui()
  const { data } = useQuery(siteQueries.slider())
  if (!data) return <SliderSkeleton />
  return <Slider images={data} label={t`Offers`} />
}
