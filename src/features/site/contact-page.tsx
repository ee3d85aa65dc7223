import { useState, type FormEvent } from 'react'
import type { BaseIssue } from 'valibot'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { MESSAGE_LIMITS } from '../../contract/constants'
import type { ContactInfo } from '../../contract/site'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import { LoadProblem, TextLines } from '../../ui/load-problem'
import * as fieldStyles from '../../ui/field.css'
import { sendMessage, siteQueries } from './queries'
import * as styles from './pages.css'

type Field = keyof typeof MESSAGE_LIMITS
const EMPTY: Record<Field, string> = { name: '', phone_number: '', message: '' }

/**
 * The form's schema and its library, at the first send: not a part of the page's first load
 * (they come with the page's first reply, whose check uses them: src/api/check-reply.ts).
 */
const loadSchema = () =>
  Promise.all([import('valibot'), import('../../contract/site')]).then(([v, contract]) => ({
    v,
    schema: contract.MessagePayloadSchema,
  }))

export function ContactPage() {
  const { t } = useLingui()
  const [values, setValues] = useState(EMPTY)
  const [problem, setProblem] = useState<{ field?: Field; message: string } | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const mutation = useMutation({
    mutationFn: sendMessage,
    onSuccess: (reply) => {
      setSent(reply.message)
      setValues(EMPTY)
    },
    onError: (error) => setProblem({ message: error.message }),
  })

  const labels: Record<Field, string> = {
    name: t`Name`,
    phone_number: t`Phone number`,
    message: t`Message`,
  }

  /** The first problem only, in the user's language. */
  function problemOf(issue: BaseIssue<unknown>): { field: Field; message: string } {
    const field = issue.path?.[0]?.key as Field
    const max = MESSAGE_LIMITS[field]
    const label = labels[field]
    if (issue.type === 'max_length')
      return { field, message: t`${label} may not be longer than ${max} characters` }
    if (issue.type === 'regex') return { field, message: t`The phone number is not valid` }
    const required = {
      name: t`Name field is required`,
      phone_number: t`Phone number field is required`,
      message: t`Message field is required`,
    }
    return { field, message: required[field] }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSent(null)
    loadSchema().then(
      ({ v, schema }) => {
        const result = v.safeParse(schema, values)
        setProblem(result.success ? null : problemOf(result.issues[0]))
        if (result.success) mutation.mutate(result.output)
      },
      () =>
        setProblem({
          message: t`Error fetching data. Please check your connection and try again.`,
        }),
    )
  }

  const input = (field: Field) => ({
    id: `contact-${field}`,
    name: field,
    className: fieldStyles.input,
    value: values[field],
    maxLength: MESSAGE_LIMITS[field],
    'aria-invalid': problem?.field === field,
    'aria-describedby': problem?.field === field ? 'contact-error' : undefined,
    onChange: (event: { target: { value: string } }) =>
      setValues((old) => ({ ...old, [field]: event.target.value })),
  })

  return (
    <div className={styles.columns}>
      <section className={styles.card}>
        <h1 className={styles.heading}>
          <Trans>Contact us</Trans>
        </h1>
        <form className={styles.form} onSubmit={submit} noValidate>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor="contact-name">
              {labels.name}
            </label>
            <input {...input('name')} autoComplete="name" />
          </div>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor="contact-phone_number">
              {labels.phone_number}
            </label>
            <input {...input('phone_number')} type="tel" autoComplete="tel" dir="ltr" />
          </div>
          <div className={fieldStyles.field}>
            <label className={fieldStyles.label} htmlFor="contact-message">
              {labels.message}
            </label>
            <textarea {...input('message')} rows={5} />
          </div>
          <button type="submit" className={button.primary} disabled={mutation.isPending}>
            {mutation.isPending ? <Trans>Sending…</Trans> : <Trans>Send</Trans>}
          </button>
          <div aria-live="polite">
            {problem && (
              <p id="contact-error" className={fieldStyles.error} role="alert">
                {problem.message}
              </p>
            )}
            {sent && <p className={fieldStyles.success}>{sent}</p>}
          </div>
        </form>
      </section>
      <ContactInfoCard />
    </div>
  )
}

function ContactInfoCard() {
  const { data, error, refetch } = useQuery(siteQueries.contact(useLocale()))
  return (
    <section className={styles.card} aria-labelledby="contact-info-heading">
      <h2 id="contact-info-heading" className={styles.heading}>
        <Trans>Contact information</Trans>
      </h2>
      {data ? (
        <ContactDetails info={data} />
      ) : error ? (
        <LoadProblem error={error} onRetry={() => void refetch()} />
      ) : (
        <TextLines />
      )}
    </section>
  )
}

function ContactDetails({ info }: { info: ContactInfo }) {
  const { t } = useLingui()
  const rows: Array<{ label: string; value?: string | null; href?: string }> = [
    { label: t`Email`, value: info.email, href: info.email ? `mailto:${info.email}` : undefined },
    {
      label: t`Phone number`,
      value: info.first_phone_number,
      href: info.first_phone_number ? `tel:${info.first_phone_number}` : undefined,
    },
    {
      label: t`Second phone number`,
      value: info.second_phone_number,
      href: info.second_phone_number ? `tel:${info.second_phone_number}` : undefined,
    },
    { label: t`Facebook`, value: info.facebook, href: info.facebook ?? undefined },
    { label: t`Instagram`, value: info.instagram, href: info.instagram ?? undefined },
    { label: t`WhatsApp`, value: info.whatsapp },
    { label: t`TikTok`, value: info.tiktok, href: info.tiktok ?? undefined },
  ]
  return (
    <dl className={styles.infoList}>
      {rows
        .filter((row) => row.value)
        .map((row) => (
          <div key={row.label}>
            <dt className={styles.infoTerm}>{row.label}</dt>
            <dd className={styles.infoValue}>
              <bdi dir="ltr">
                {row.href ? (
                  <a
                    href={row.href}
                    target={row.href.startsWith('http') ? '_blank' : undefined}
                    rel="noopener noreferrer"
                  >
                    {row.value}
                  </a>
                ) : (
                  row.value
                )}
              </bdi>
            </dd>
          </div>
        ))}
    </dl>
  )
}
