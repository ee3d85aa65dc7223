import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import {
  DAY_PATTERN,
  DECIMAL_PATTERN,
  PROMO_CODE_PATTERN,
  PROMO_USES_PATTERN,
  type PromoCode,
} from '../../contract/console-catalogue'
import { button } from '../../ui/button.css'
import { EmptyState } from '../../ui/empty-state'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { catalogueApi, catalogueQueries } from './catalogue-queries'
import * as styles from './catalogue.css'

/** Promo codes: make one (value, uses, last day), the list with their uses, switch one off. */
export function PromoPage() {
  const codes = useQuery(catalogueQueries.promoCodes())
  // When the page opened: what counts as expired while it is shown.
  const [now] = useState(() => Date.now())
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <>
      <NewPromo onMade={setNotice} />
      <section className={surface.surface} aria-labelledby="promo-list-heading">
        <h2 id="promo-list-heading" className={surface.subheading}>
          <Trans>Codes</Trans>
        </h2>
        <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
          {notice}
        </p>
        {codes.error ? (
          <LoadProblem error={codes.error} onRetry={() => void codes.refetch()} />
        ) : !codes.data ? (
          <Loading />
        ) : codes.data.length === 0 ? (
          <EmptyState>
            <Trans>No promo codes yet.</Trans>
          </EmptyState>
        ) : (
          <ul className={styles.items}>
            {codes.data.map((code) => (
              <PromoRow key={code.id} code={code} now={now} onDone={setNotice} />
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

/** The last day a code may be used: the day before the instant it stops (UTC). */
const lastDay = (expiresAt: string) =>
  new Date(Date.parse(expiresAt) - 86_400_000).toISOString().slice(0, 10)

function PromoRow({
  code,
  now,
  onDone,
}: {
  code: PromoCode
  now: number
  onDone: (message: string) => void
}) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const disable = useMutation({
    mutationFn: () => catalogueApi.disablePromo(code.id),
    onSuccess: (reply) => {
      onDone(reply.message)
      void queryClient.invalidateQueries({ queryKey: catalogueQueries.promoCodes().queryKey })
    },
    onError: (error) => setProblem(error.message),
  })
  const state = code.disabled_at
    ? t`Switched off`
    : code.expires_at && Date.parse(code.expires_at) <= now
      ? t`Expired`
      : code.uses >= code.uses_allowed
        ? t`Used up`
        : t`Active`
  return (
    <li className={styles.promo}>
      <div className={styles.itemHead}>
        <h3 className={styles.itemName}>
          <bdi dir="ltr">{code.code}</bdi>
        </h3>
        <span className={code.disabled_at ? styles.off : styles.on}>{state}</span>
      </div>
      <p className={styles.promoFacts}>
        <Trans>
          <Price amount={code.value} currency={code.currency} /> · used {code.uses} of{' '}
          {code.uses_allowed}
        </Trans>
        {code.expires_at && (
          <>
            {' · '}
            <Trans>
              last day <bdi>{lastDay(code.expires_at)}</bdi>
            </Trans>
          </>
        )}
      </p>
      {!code.disabled_at && (
        <button
          type="button"
          className={button.secondary}
          disabled={disable.isPending}
          onClick={() => disable.mutate()}
          aria-label={t`Switch off ${code.code}`}
        >
          <Trans>Switch off</Trans>
        </button>
      )}
      <FormError message={problem} />
    </li>
  )
}

function NewPromo({ onMade }: { onMade: (message: string) => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [code, setCode] = useState('')
  const [value, setValue] = useState('')
  const [currency, setCurrency] = useState<'USD' | 'LBP'>('USD')
  const [uses, setUses] = useState('1')
  const [expires, setExpires] = useState('')
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null)
  const make = useMutation({
    mutationFn: catalogueApi.createPromo,
    onSuccess: (reply) => {
      setProblem(null)
      setCode('')
      setValue('')
      onMade(reply.message)
      void queryClient.invalidateQueries({ queryKey: catalogueQueries.promoCodes().queryKey })
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? Object.keys(error.fieldErrors) : []
      setProblem({ field: fields[0] ?? 'code', message: error.message })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checks: [string, boolean, string][] = [
      [
        'code',
        PROMO_CODE_PATTERN.test(code.trim()),
        t`The code must be 3 to 64 letters, digits, - or _.`,
      ],
      [
        'value',
        DECIMAL_PATTERN.test(value.trim()) && Number(value) > 0,
        t`Type an amount above 0, like 5 or 2.5.`,
      ],
      [
        'uses',
        PROMO_USES_PATTERN.test(uses.trim()),
        t`Type how many customers may use it, from 1.`,
      ],
      ['expires', !expires || DAY_PATTERN.test(expires), t`Choose a day, or leave it empty.`],
    ]
    const wrong = checks.find(([, ok]) => !ok)
    if (wrong) {
      setProblem({ field: wrong[0], message: wrong[2] })
      return
    }
    make.mutate({ code: code.trim(), value: value.trim(), currency, uses: uses.trim(), expires })
  }
  const invalid = (field: string) => problem?.field === field
  return (
    <section className={surface.surface} aria-labelledby="promo-heading">
      <h1 id="promo-heading" className={surface.heading}>
        <Trans>Promo codes</Trans>
      </h1>
      <p className={surface.muted}>
        <Trans>A customer types the code in their wallet and is credited its value once.</Trans>
      </p>
      <form className={styles.promoForm} onSubmit={submit} noValidate>
        <TextField
          id="promo-code"
          label={<Trans>Code</Trans>}
          value={code}
          onValue={setCode}
          invalid={invalid('code')}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
        />
        <TextField
          id="promo-value"
          label={<Trans>Value</Trans>}
          value={value}
          onValue={setValue}
          invalid={invalid('value')}
          inputMode="decimal"
          autoComplete="off"
        />
        <Field id="promo-currency" label={<Trans>Currency</Trans>}>
          <select
            id="promo-currency"
            className={fieldStyles.input}
            value={currency}
            onChange={(event) => setCurrency(event.target.value === 'LBP' ? 'LBP' : 'USD')}
          >
            <option value="USD">USD</option>
            <option value="LBP">LBP</option>
          </select>
        </Field>
        <TextField
          id="promo-uses"
          label={<Trans>Customers who may use it</Trans>}
          value={uses}
          onValue={setUses}
          invalid={invalid('uses')}
          inputMode="numeric"
          autoComplete="off"
        />
        <TextField
          id="promo-expires"
          type="date"
          label={<Trans>Last day (optional)</Trans>}
          value={expires}
          onValue={setExpires}
          invalid={invalid('expires')}
        />
        <button type="submit" className={button.primary} disabled={make.isPending}>
          <Trans>Make the code</Trans>
        </button>
      </form>
      <FormError message={problem?.message} />
    </section>
  )
}
