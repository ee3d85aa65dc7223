import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type {
  CatalogueImportResult,
  ConsoleCatalogue,
  ConsoleItem,
} from '../../contract/console-catalogue'
import { DECIMAL_PATTERN } from '../../contract/console-catalogue'
import { toMicros } from '../../domain/money'
import { unitPrice } from '../../domain/pricing'
import { useLocale } from '../../i18n/use-locale'
import { button } from '../../ui/button.css'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink } from '../../ui/nav'
import { Price } from '../../ui/price'
import * as surface from '../../ui/surface.css'
import { catalogueApi, catalogueQueries, type ItemKind } from './catalogue-queries'
import { consoleQueries } from './queries'
import * as styles from './catalogue.css'

type Product = ConsoleCatalogue['products'][number]

/** The storefront's catalogue replies held in this tab (src/features/catalogue/queries.ts). */
const storefrontCatalogue = (query: { queryKey: readonly unknown[] }) =>
  query.queryKey[0] === 'catalogue'

/**
 * The catalogue as the console runs it: the file out (anyone) and in (the owner), then each
 * product with its packages, on or off sale, and their prices (the owner's, docs/api.md).
 */
export function CataloguePage() {
  const locale = useLocale()
  const me = useQuery(consoleQueries.me())
  const catalogue = useQuery(catalogueQueries.catalogue())
  const [search, setSearch] = useState('')
  const [open, setOpen] = useState<number | null>(null)
  if (catalogue.error)
    return <LoadProblem error={catalogue.error} onRetry={() => void catalogue.refetch()} />
  if (!catalogue.data || !me.data) return <Loading />
  const owner = me.data.role === 'owner'
  const words = search.trim().toLowerCase()
  const shown = catalogue.data.products.filter(
    (p) =>
      !words ||
      `${p.name_en} ${p.name_ar} ${p.packages.map((k) => `${k.name_en} ${k.name_ar}`).join(' ')}`
        .toLowerCase()
        .includes(words),
  )
  return (
    <>
      <FileSection owner={owner} />
      <section className={surface.surface} aria-labelledby="catalogue-heading">
        <h2 id="catalogue-heading" className={surface.subheading}>
          <Trans>Products and prices</Trans>
        </h2>
        <p className={surface.muted}>
          {owner ? (
            <Trans>Prices are in US dollars. The store shows a change at once.</Trans>
          ) : (
            <Trans>Only the owner changes prices; you can put items on or off sale.</Trans>
          )}
        </p>
        <TextField
          id="catalogue-search"
          type="search"
          label={<Trans>Find a product or package</Trans>}
          value={search}
          onValue={setSearch}
        />
        <ul className={styles.products}>
          {shown.map((product) => (
            <li key={product.id} className={styles.product}>
              <button
                type="button"
                className={`${button.secondary} ${styles.productButton}`}
                aria-expanded={open === product.id}
                onClick={() => setOpen(open === product.id ? null : product.id)}
              >
                <bdi>{locale === 'ar' && product.name_ar ? product.name_ar : product.name_en}</bdi>
                <span className={styles.count}>
                  {product.packages.length > 0 ? (
                    <Trans>{product.packages.length} packages</Trans>
                  ) : (
                    <Price amount={product.company_price} currency="USD" />
                  )}
                </span>
              </button>
              {open === product.id && <ProductItems product={product} owner={owner} />}
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

function ProductItems({ product, owner }: { product: Product; owner: boolean }) {
  return (
    <ul className={styles.items}>
      <ItemRow kind="products" item={product} number={product.number} owner={owner} />
      {product.packages.map((item) => (
        <ItemRow key={item.id} kind="packages" item={item} number={product.number} owner={owner} />
      ))}
    </ul>
  )
}

function ItemRow({
  kind,
  item,
  number,
  owner,
}: {
  kind: ItemKind
  item: ConsoleItem
  number: number
  owner: boolean
}) {
  const locale = useLocale()
  const queryClient = useQueryClient()
  const [notice, setNotice] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const name = locale === 'ar' && item.name_ar ? item.name_ar : item.name_en
  const saved = (message: string) => {
    setProblem(null)
    setNotice(message)
    void queryClient.invalidateQueries({ queryKey: catalogueQueries.catalogue().queryKey })
    // The storefront's own lists and pages show the change when opened next.
    void queryClient.invalidateQueries({ predicate: storefrontCatalogue })
  }
  const toggle = useMutation({
    mutationFn: () => catalogueApi.availability(kind, item.id, !item.is_available),
    onSuccess: (reply) => saved(reply.message),
    onError: (error) => setProblem(error.message),
  })
  return (
    <li className={styles.item}>
      <div className={styles.itemHead}>
        <h3 className={styles.itemName}>
          <bdi>{name}</bdi>
        </h3>
        <span className={item.is_available ? styles.on : styles.off}>
          {item.is_available ? <Trans>On sale</Trans> : <Trans>Off sale</Trans>}
        </span>
      </div>
      <button
        type="button"
        className={button.secondary}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {item.is_available ? <Trans>Take off sale</Trans> : <Trans>Put on sale</Trans>}
      </button>
      {owner ? (
        <PriceForm kind={kind} item={item} number={number} onSaved={saved} />
      ) : (
        <p className={surface.muted}>
          <Trans>
            Base price <Price amount={item.company_price} currency="USD" />
          </Trans>
        </p>
      )}
      <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
        {notice}
      </p>
      <FormError message={problem} />
    </li>
  )
}

const text = (n: number) => String(n)

function PriceForm({
  kind,
  item,
  number,
  onSaved,
}: {
  kind: ItemKind
  item: ConsoleItem
  number: number
  onSaved: (message: string) => void
}) {
  const { t } = useLingui()
  const [price, setPrice] = useState(text(item.company_price))
  const [customerPct, setCustomerPct] = useState(text(item.product_percentage))
  const [companyPct, setCompanyPct] = useState(text(item.company_percentage))
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null)
  const save = useMutation({
    mutationFn: () =>
      catalogueApi.prices(kind, item.id, {
        company_price: price.trim(),
        company_percentage: companyPct.trim(),
        product_percentage: customerPct.trim(),
      }),
    onSuccess: (reply) => {
      setProblem(null)
      onSaved(reply.message)
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? Object.keys(error.fieldErrors) : []
      setProblem({ field: fields[0] ?? 'form', message: error.message })
    },
  })
  const valid = (s: string) => DECIMAL_PATTERN.test(s.trim())
  const fields = {
    company_price: price,
    product_percentage: customerPct,
    company_percentage: companyPct,
  }
  const wrong = Object.entries(fields).find(([, value]) => !valid(value))?.[0]
  const preview = wrong
    ? null
    : {
        companyPrice: toMicros(price.trim()),
        productPercentage: Number(customerPct),
        companyPercentage: Number(companyPct),
        number,
      }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (wrong) {
      setProblem({ field: wrong, message: t`Type a number like 12.5 (at most 6 decimals).` })
      return
    }
    save.mutate()
  }
  const id = (field: string) => `${kind}-${item.id}-${field}`
  const invalid = (field: string) => problem?.field === field
  return (
    <form className={styles.priceForm} onSubmit={submit} noValidate>
      <div className={styles.priceFields}>
        <TextField
          id={id('company_price')}
          label={<Trans>Base price ($)</Trans>}
          value={price}
          onValue={setPrice}
          invalid={invalid('company_price')}
          inputMode="decimal"
          autoComplete="off"
        />
        <TextField
          id={id('product_percentage')}
          label={<Trans>Customer markup (%)</Trans>}
          value={customerPct}
          onValue={setCustomerPct}
          invalid={invalid('product_percentage')}
          inputMode="decimal"
          autoComplete="off"
        />
        <TextField
          id={id('company_percentage')}
          label={<Trans>Company markup (%)</Trans>}
          value={companyPct}
          onValue={setCompanyPct}
          invalid={invalid('company_percentage')}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      {preview && (
        <p className={surface.muted} aria-live="polite">
          <Trans>
            A customer pays <Price amount={unitPrice(preview, 'CUSTOMER')} currency="USD" />, a
            company <Price amount={unitPrice(preview, 'COMPANY')} currency="USD" />.
          </Trans>
        </p>
      )}
      <button type="submit" className={button.primary} disabled={save.isPending}>
        <Trans>Save prices</Trans>
      </button>
      <FormError message={problem?.message} />
    </form>
  )
}

/** The catalogue file: export for anyone, import for the owner, with what it changed. */
function FileSection({ owner }: { owner: boolean }) {
  const { t } = useLingui()
  const locale = useLocale()
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const [problem, setProblem] = useState<{ message: string; lines: string[] } | null>(null)
  const [result, setResult] = useState<{ message: string; data: CatalogueImportResult } | null>(
    null,
  )
  const download = useMutation({
    mutationFn: catalogueApi.exportFile,
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob)
      const link = document.createElement('a')
      link.href = url
      link.download = `catalogue-${new Date().toISOString().slice(0, 10)}.json`
      link.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    },
    onError: (error) => setProblem({ message: error.message, lines: [] }),
  })
  const upload = useMutation({
    mutationFn: (chosen: File) => catalogueApi.importFile(chosen),
    onSuccess: (reply) => {
      setProblem(null)
      setResult(reply)
      void queryClient.invalidateQueries({ queryKey: catalogueQueries.catalogue().queryKey })
      void queryClient.invalidateQueries({ predicate: storefrontCatalogue })
    },
    onError: (error) => {
      setResult(null)
      const lines = error instanceof ApiError ? Object.entries(error.fieldErrors) : []
      setProblem({
        message: error.message,
        lines: lines.flatMap(([path, messages]) => messages.map((m) => `${path}: ${m}`)),
      })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file) {
      setProblem({ message: t`Choose the catalogue file (JSON) to import.`, lines: [] })
      return
    }
    upload.mutate(file)
  }
  const changeName = { added: t`added`, removed: t`removed`, changed: t`changed` }
  return (
    <section className={surface.surface} aria-labelledby="catalogue-file-heading">
      <h1 id="catalogue-file-heading" className={surface.heading}>
        <Trans>Catalogue</Trans>
      </h1>
      <p>
        <AppLink to="/admin/slider">
          <Trans>Home slider</Trans>
        </AppLink>
      </p>
      <p className={surface.muted}>
        <Trans>The same JSON file as the operator command catalogue:export writes.</Trans>
      </p>
      <button
        type="button"
        className={button.secondary}
        disabled={download.isPending}
        onClick={() => download.mutate()}
      >
        <Trans>Export the catalogue</Trans>
      </button>
      {owner && (
        <form className={styles.importForm} onSubmit={submit} noValidate>
          <Field id="catalogue-file" label={<Trans>Catalogue file to import</Trans>}>
            <input
              id="catalogue-file"
              type="file"
              accept="application/json,.json"
              className={fieldStyles.input}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </Field>
          <p className={surface.muted}>
            <Trans>Importing replaces the whole catalogue.</Trans>
          </p>
          <button type="submit" className={button.primary} disabled={upload.isPending}>
            <Trans>Import</Trans>
          </button>
        </form>
      )}
      {problem && (
        <div role="alert" className={styles.result}>
          <p className={fieldStyles.error}>{problem.message}</p>
          {problem.lines.length > 0 && (
            <ul className={styles.lines}>
              {problem.lines.map((line) => (
                <li key={line} dir="ltr">
                  {line}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {result && (
        <div role="status" className={styles.result}>
          <p className={fieldStyles.success}>{result.message}</p>
          <ul className={styles.lines}>
            <li>
              <Trans>
                Products: {result.data.changes.products.added} added,{' '}
                {result.data.changes.products.removed} removed,{' '}
                {result.data.changes.products.changed} changed
              </Trans>
            </li>
            <li>
              <Trans>
                Packages: {result.data.changes.packages.added} added,{' '}
                {result.data.changes.packages.removed} removed,{' '}
                {result.data.changes.packages.changed} changed
              </Trans>
            </li>
            {result.data.changes.rows.map((row) => (
              <li key={`${row.kind}-${row.id}`}>
                {changeName[row.change]}: <bdi>{locale === 'ar' ? row.name_ar : row.name_en}</bdi>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}
