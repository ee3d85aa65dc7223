import { useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type { Settings } from '../../contract/console-settings'
import { RECEIPT_METHOD_ENTRIES } from '../../contract/payment-methods'
import { button } from '../../ui/button.css'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import * as surface from '../../ui/surface.css'
import { settingsApi, settingsQueries, type SettingsForm } from './settings-queries'
import * as styles from './console.css'
import * as own from './settings.css'

/**
 * The owner's settings (docs/api.md, Console: Settings): the payment methods, the contact
 * details and the about text, each its own form saved whole. A refused save keeps what was
 * typed and names each field that is wrong, in the console's language. An operator is told the
 * settings are the owner's.
 */
export function SettingsPage() {
  const settings = useQuery(settingsQueries.settings())
  if (settings.error instanceof ApiError && settings.error.status === 403)
    return (
      <section className={surface.surface} aria-labelledby="settings-heading">
        <h1 id="settings-heading" className={surface.heading}>
          <Trans>Settings</Trans>
        </h1>
        <p role="alert">
          <Trans>Only the store's owner can change the settings.</Trans>
        </p>
      </section>
    )
  if (settings.error)
    return <LoadProblem error={settings.error} onRetry={() => void settings.refetch()} />
  if (!settings.data) return <Loading />
  return <SettingsForms settings={settings.data} />
}

type Kind = 'text' | 'textarea' | 'switch' | 'tel' | 'email' | 'url'
interface FieldSpec {
  name: string
  label: ReactNode
  kind: Kind
  /** Addresses, numbers and links read left to right in either language. */
  dir?: 'ltr' | 'rtl'
}

type Values = Record<string, string | boolean>

const text = (value: string | number | null | undefined) => (value == null ? '' : String(value))

function SettingsForms({ settings }: { settings: Settings }) {
  const { t, i18n } = useLingui()
  const watched = settings.payments.watched_trc20 || settings.payments.watched_bep20
  // Each receipt method of the registry (src/contract/payment-methods.ts) by its own name.
  const payments: FieldSpec[] = [
    ...RECEIPT_METHOD_ENTRIES.flatMap(({ key, label }): FieldSpec[] => {
      const method = i18n._(label)
      return [
        { name: `${key}_on`, label: t`Offer ${method}`, kind: 'switch' },
        { name: `${key}_text`, label: t`${method} text (English)`, kind: 'textarea', dir: 'ltr' },
        { name: `${key}_text_ar`, label: t`${method} text (Arabic)`, kind: 'textarea', dir: 'rtl' },
        { name: `${key}_tax`, label: t`${method} tax (%)`, kind: 'text', dir: 'ltr' },
      ]
    }),
    { name: 'usdt_on', label: t`Offer USDT`, kind: 'switch' },
    { name: 'usdt_trc20', label: t`TRC20 address (Tron)`, kind: 'text', dir: 'ltr' },
    { name: 'usdt_bep20', label: t`BEP20 address (BNB Smart Chain)`, kind: 'text', dir: 'ltr' },
    { name: 'usdt_tax', label: t`USDT tax (%)`, kind: 'text', dir: 'ltr' },
  ]
  const contact: FieldSpec[] = [
    { name: 'first_phone_number', label: t`Phone number`, kind: 'tel', dir: 'ltr' },
    { name: 'second_phone_number', label: t`Second phone number`, kind: 'tel', dir: 'ltr' },
    { name: 'whatsapp', label: t`WhatsApp number`, kind: 'tel', dir: 'ltr' },
    { name: 'email', label: t`Email`, kind: 'email', dir: 'ltr' },
    { name: 'facebook', label: t`Facebook link`, kind: 'url', dir: 'ltr' },
    { name: 'instagram', label: t`Instagram link`, kind: 'url', dir: 'ltr' },
    { name: 'tiktok', label: t`TikTok link`, kind: 'url', dir: 'ltr' },
  ]
  const texts: FieldSpec[] = [
    { name: 'about_us_text_en', label: t`About text (English)`, kind: 'textarea', dir: 'ltr' },
    { name: 'about_us_text_ar', label: t`About text (Arabic)`, kind: 'textarea', dir: 'rtl' },
  ]
  return (
    <div className={styles.page}>
      <h1 id="settings-heading" className={surface.heading}>
        <Trans>Settings</Trans>
      </h1>
      <SettingsSection
        form="payments"
        heading={<Trans>Payment methods</Trans>}
        fields={payments}
        settings={settings}
        valuesOf={({ payments: p }) => ({
          ...Object.fromEntries(
            RECEIPT_METHOD_ENTRIES.flatMap(({ key }) => [
              [`${key}_on`, p[`${key}_on`]],
              [`${key}_text`, text(p[`${key}_text`])],
              [`${key}_text_ar`, text(p[`${key}_text_ar`])],
              [`${key}_tax`, text(p[`${key}_tax_percentage`])],
            ]),
          ),
          usdt_on: p.usdt_on,
          usdt_trc20: text(p.usdt_trc20),
          usdt_bep20: text(p.usdt_bep20),
          usdt_tax: text(p.usdt_tax_percentage),
        })}
        note={
          watched ? (
            <Trans>
              A chain watcher is configured on the server: customers are shown its address for its
              network.
            </Trans>
          ) : null
        }
      />
      <SettingsSection
        form="contact"
        heading={<Trans>Contact details</Trans>}
        fields={contact}
        settings={settings}
        valuesOf={(s) =>
          Object.fromEntries(Object.entries(s.contact).map(([k, value]) => [k, text(value)]))
        }
      />
      <SettingsSection
        form="texts"
        heading={<Trans>Site texts</Trans>}
        fields={texts}
        settings={settings}
        valuesOf={(s) => ({ ...s.texts })}
      />
    </div>
  )
}

function SettingsSection({
  form,
  heading,
  fields,
  settings,
  valuesOf,
  note,
}: {
  form: SettingsForm
  heading: ReactNode
  fields: FieldSpec[]
  settings: Settings
  /** The form's values as the settings hold them: at first, and as saved. */
  valuesOf: (settings: Settings) => Values
  note?: ReactNode
}) {
  const queryClient = useQueryClient()
  const [values, setValues] = useState<Values>(() => valuesOf(settings))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: () => settingsApi.save(form, values),
    onSuccess: (reply) => {
      setErrors({})
      setProblem(null)
      setSaved(reply.message)
      setValues(valuesOf(reply.data))
      queryClient.setQueryData(settingsQueries.settings().queryKey, { data: reply.data })
    },
    onError: (error) => {
      // What was typed stays; each wrong field says why.
      setSaved(null)
      const byField = error instanceof ApiError ? error.fieldErrors : {}
      setErrors(Object.fromEntries(Object.entries(byField).map(([k, m]) => [k, m[0] ?? ''])))
      setProblem(error.message)
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSaved(null)
    save.mutate()
  }
  const id = `settings-${form}`
  return (
    <section className={surface.surface} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className={surface.subheading}>
        {heading}
      </h2>
      {note && <p className={surface.muted}>{note}</p>}
      <form className={styles.form} onSubmit={submit} noValidate>
        {fields.map((field) => (
          <SettingsField
            key={field.name}
            id={`${id}-${field.name}`}
            field={field}
            value={values[field.name] ?? ''}
            error={errors[field.name]}
            onValue={(value) => setValues((before) => ({ ...before, [field.name]: value }))}
          />
        ))}
        <button type="submit" className={button.primary} disabled={save.isPending}>
          {save.isPending ? <Trans>Please wait…</Trans> : <Trans>Save</Trans>}
        </button>
        <FormError message={problem} />
        <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
          {saved}
        </p>
      </form>
    </section>
  )
}

function SettingsField({
  id,
  field,
  value,
  error,
  onValue,
}: {
  id: string
  field: FieldSpec
  value: string | boolean
  error: string | undefined
  onValue: (value: string | boolean) => void
}) {
  const errorId = `${id}-error`
  const message = error ? (
    <p id={errorId} className={fieldStyles.error}>
      {error}
    </p>
  ) : null
  if (field.kind === 'switch')
    return (
      <label className={own.switchRow} htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          className={own.switchBox}
          checked={value === true}
          onChange={(event) => onValue(event.target.checked)}
        />
        <span>{field.label}</span>
      </label>
    )
  const common = {
    id,
    name: field.name,
    dir: field.dir,
    value: String(value),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  }
  return (
    <Field id={id} label={field.label} hint={message}>
      {field.kind === 'textarea' ? (
        <textarea
          {...common}
          className={`${fieldStyles.input} ${own.longText}`}
          onChange={(event) => onValue(event.target.value)}
        />
      ) : (
        <input
          {...common}
          className={fieldStyles.input}
          type={field.kind === 'text' ? 'text' : field.kind}
          inputMode={field.name.endsWith('_tax') ? 'decimal' : undefined}
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => onValue(event.target.value)}
        />
      )}
    </Field>
  )
}
