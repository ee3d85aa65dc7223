import { chooseLocale } from '../i18n/locale'
import { useLocale } from '../i18n/use-locale'
import { GlobeIcon } from '../ui/icons'
import { button } from '../ui/button.css'
import * as styles from './shell.css'

/**
 * EN/AR switch: names the other language in that language, as stores in the region do. On a
 * phone it shows the language's short name, which its accessible name contains.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const locale = useLocale()
  const next = locale === 'en' ? 'ar' : 'en'
  const name = next === 'ar' ? 'العربية' : 'English'
  return (
    <button
      type="button"
      className={`${button.ghost} ${styles.compact} ${className ?? ''}`}
      lang={next}
      aria-label={name}
      onClick={() => void chooseLocale(next)}
    >
      <GlobeIcon className={styles.onlyWide} />
      <span className={styles.onlyWide}>{name}</span>
      <span className={styles.onlyPhone} aria-hidden="true">
        {next === 'ar' ? 'ع' : 'EN'}
      </span>
    </button>
  )
}
