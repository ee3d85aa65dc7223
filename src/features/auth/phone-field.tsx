import { useEffect, useMemo, useState } from 'react'
import type { CountryCode } from 'libphonenumber-js/min'
import { Trans, useLingui } from '@lingui/react/macro'
import { DEFAULT_CALLING_CODE, DEFAULT_COUNTRY } from '../../domain/phone'
import { useLocale } from '../../i18n/use-locale'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import * as styles from './auth.css'
import { loadPhoneNumbers } from './rules'

export interface PhoneValue {
  country: CountryCode
  number: string
}

/** A phone number with its country (Lebanon by default), as one labelled field. */
export function PhoneField({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string
  value: PhoneValue
  onChange: (value: PhoneValue) => void
  invalid?: boolean
  describedBy?: string
}) {
  return (
    <Field id={id} label={<Trans>Phone number</Trans>}>
      <PhoneInputs
        id={id}
        value={value}
        onChange={onChange}
        invalid={invalid}
        describedBy={describedBy}
      />
    </Field>
  )
}

function PhoneInputs({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string
  value: PhoneValue
  onChange: (value: PhoneValue) => void
  invalid?: boolean
  describedBy?: string
}) {
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

  return (
    <div className={styles.phone}>
      <select
        className={fieldStyles.input}
        aria-label={t`Country`}
        value={value.country}
        onChange={(event) => onChange({ ...value, country: event.target.value as CountryCode })}
      >
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {/* The code first, kept left to right: a narrow box cuts the name, not the code. */}
            {`\u2066+${country.dial}\u2069 ${country.name}`}
          </option>
        ))}
      </select>
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
