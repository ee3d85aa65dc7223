import { CataloguePage } from './catalogue-page'
import { ConsoleGate } from './console-gate'
import { PromoPage } from './promo-page'

/** The catalogue's and promo codes' screens behind the console's sign-in. */
export function CatalogueScreen({ screen }: { screen: 'catalogue' | 'promo' }) {
  return <ConsoleGate>{screen === 'catalogue' ? <CataloguePage /> : <PromoPage />}</ConsoleGate>
}
