/**
 * The phone-number rules and the countries' calling codes: libphonenumber-js with its metadata
 * (about 30 KiB gzip), loaded by a form with a phone field once it is shown, not with the page
 * (`loadPhoneNumbers` in ./rules.ts; docs/performance.md, The first load).
 */
export { normalisePhone } from '../../domain/phone'
export { getCountries, getCountryCallingCode } from 'libphonenumber-js/min'
