import { useLingui } from '@lingui/react/macro'
import { chooseLocale } from '../i18n/locale'
import { useLocale } from '../i18n/use-locale'
import { GlobeIcon } from '../ui/icons'
import { button } from '../ui/button.css'

/** EN/AR switch: names the other language in that language, as stores in the region do. */
export function LanguageSwitch() {
  const { t } = useLingui()
  const locale = useLocale()
  const next = locale === 'en' ? 'ar' : 'en'
  return (
    <button
      type="button"
      className={button.ghost}
      lang={next}
      title={t`Change language`}
      onClick={() => void chooseLocale(next)}
    >
      <GlobeIcon />
      {next === 'ar' ? 'العربية' : 'English'}
    </button>
  )
}
