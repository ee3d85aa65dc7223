import { chooseLocale } from '../i18n/locale'
import { useLocale } from '../i18n/use-locale'
import { GlobeIcon } from '../ui/icons'
import { button } from '../ui/button.css'
import * as styles from './shell.css'

/**
 * EN/AR switch: names the other language in that language, as stores in the region do. On a
 * phone it shows the language's short name; the accessible name holds both, so what a voice
 * user reads on the button is its name on any screen (WCAG 2.5.3).
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const locale = useLocale()
  const next = locale === 'en' ? 'ar' : 'en'
  const name = next === 'ar' ? 'العربية' : 'English'
  const short = next === 'ar' ? 'ع' : 'EN'
  return (
    <button
      type="button"
      className={`${button.ghost} ${styles.compact} ${className ?? ''}`}
      lang={next}
      aria-label={`${name} ${short}`}
      onClick={() => void chooseLocale(next)}
    >
      <GlobeIcon className={styles.onlyWide} />
      <span className={styles.onlyWide}>{name}</span>
      <span className={styles.onlyPhone} aria-hidden="true">
        {short}
      </span>
    </button>
  )
}
