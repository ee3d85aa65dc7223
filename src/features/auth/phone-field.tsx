import { useEffect, useMemo, useState } from 'react'
import type { CountryCode } from 'libphonenumber-js/min'
import { Trans, useLingui } from '@lingui/react/macro'
import { DEFAULT_CALLING_CODE, DEFAULT_COUNTRY } from '../../domain/phone'
import { useLocale } from '../../i18n/use-locale'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import * as styles from './auth.css'
import { loadPhoneNumbers, type PhoneValue } from './rules'

export type { PhoneValue }

interface PhoneFieldProps {
  id: string
  value: PhoneValue
  onChange: (value: PhoneValue) => void
  invalid?: boolean
  describedBy?: string
}

/** A phone number with its country (Lebanon by default), as one labelled field. */
export function PhoneField(props: PhoneFieldProps) {
  return (
    <Field id={props.id} label={<Trans>Phone number</Trans>}>
      <PhoneInputs {...props} />
    </Field>
  )
}

function PhoneInputs({ id, value, onChange, invalid, describedBy }: PhoneFieldProps) {
  const { t } = useLingui()
  const locale = useLocale()
  // The country list comes with the phone rules, loaded once the field is shown; until then
  // the closed list shows the country picked, as it will with the list (Lebanon at first).
  const [rules, setRules] = useState<Awaited<ReturnType<typeof loadPhoneNumbers>>>()
  useEffect(() => {
    let shown = true
    loadPhoneNumbers().then(
      (loaded) => shown && setRules(loaded),
      // Offline before the service worker kept them: the submit says so.
      () => {},
    )
    return () => {
      shown = false
    }
  }, [])
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' })
    const country = (code: CountryCode, dial: string) => ({
      code,
      name: names.of(code) ?? code,
      dial,
    })
    if (!rules)
      return [country(value.country, value.country === DEFAULT_COUNTRY ? DEFAULT_CALLING_CODE : '')]
    return rules
      .getCountries()
      .map((code) => country(code, rules.getCountryCallingCode(code)))
      .sort((a, b) => a.name.localeCompare(b.name, locale))
  }, [locale, rules, value.country])

  const picked = countries.find((country) => country.code === value.country)
  return (
    <div className={styles.phone}>
      {/* Closed, the list shows the calling code and the country's ISO code, which fit the
          narrowest box; open, it lists the full names. */}
      <div className={styles.country}>
        <span className={styles.countryShown} aria-hidden="true">
          <span className={styles.countryText}>
            {picked?.dial ? `\u2066+${picked.dial} ${picked.code}\u2069` : value.country}
          </span>
          {/* The select's own arrow is drawn in its (transparent) text colour. */}
          <svg width="12" height="12" viewBox="0 0 12 12">
            <path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="2" fill="none" />
          </svg>
        </span>
        <select
          className={`${fieldStyles.input} ${styles.countrySelect}`}
          aria-label={t`Country`}
          value={value.country}
          onChange={(event) => onChange({ ...value, country: event.target.value as CountryCode })}
        >
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {`\u2066+${country.dial}\u2069 ${country.name}`}
            </option>
          ))}
        </select>
      </div>
      <input
        id={id}
        className={fieldStyles.input}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        dir="ltr"
        value={value.number}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(event) => onChange({ ...value, number: event.target.value })}
      />
    </div>
  )
}
