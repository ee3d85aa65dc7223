import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import type { Image } from '../../contract/common'
import { button } from '../../ui/button.css'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Loading, LoadProblem } from '../../ui/load-problem'
import { AppLink } from '../../ui/nav'
import * as surface from '../../ui/surface.css'
import { catalogueApi, catalogueQueries } from './catalogue-queries'
import * as consoleStyles from './console.css'
import * as styles from './catalogue.css'

/** The storefront's slider reply held in this tab (src/features/site/queries.ts). */
const storefrontSlider = ({ queryKey }: { queryKey: readonly unknown[] }) =>
  queryKey[0] === 'site' && queryKey[1] === 'slider'

/**
 * The home page's slider (docs/api.md, Console: catalogue): its pictures in order, each moved
 * up or down or taken off, and a picture added last. The store shows a change at once.
 */
export function SliderPage() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const slider = useQuery(catalogueQueries.slider())
  const [notice, setNotice] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [file, setFile] = useState<File | null>(null)
  const [picker, setPicker] = useState(0)
  const done = (reply: { message?: string; data: Image[] }) => {
    setProblem(null)
    setNotice(reply.message ?? null)
    queryClient.setQueryData(catalogueQueries.slider().queryKey, { data: reply.data })
    // The storefront's home shows the new slider when opened next (src/features/site/queries.ts).
    void queryClient.invalidateQueries({ predicate: storefrontSlider })
  }
  const failed = (error: Error) => {
    setNotice(null)
    setProblem(error.message)
  }
  const add = useMutation({
    mutationFn: catalogueApi.addSlide,
    onSuccess: (reply) => {
      done(reply)
      setFile(null)
      setPicker((n) => n + 1)
    },
    onError: failed,
  })
  const change = useMutation({
    mutationFn: ({ id, to }: { id: number; to: 'up' | 'down' | 'off' }) =>
      to === 'off' ? catalogueApi.removeSlide(id) : catalogueApi.moveSlide(id, to),
    onSuccess: done,
    onError: failed,
  })
  if (slider.error)
    return <LoadProblem error={slider.error} onRetry={() => void slider.refetch()} />
  if (!slider.data) return <Loading />
  const slides = slider.data
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!file) setProblem(t`Choose a picture (JPEG, PNG or WebP).`)
    else add.mutate(file)
  }
  const busy = add.isPending || change.isPending
  return (
    <section className={surface.surface} aria-labelledby="slider-heading">
      <p className={consoleStyles.back}>
        <AppLink to="/admin/catalogue">
          <Trans>Catalogue</Trans>
        </AppLink>
      </p>
      <h1 id="slider-heading" className={surface.heading}>
        <Trans>Home slider</Trans>
      </h1>
      {slides.length === 0 && (
        <p className={surface.muted}>
          <Trans>The slider has no pictures.</Trans>
        </p>
      )}
      <ol className={styles.slides}>
        {slides.map((slide, at) => {
          const n = at + 1
          return (
            <li key={slide.id} className={styles.slide}>
              <img className={styles.slideImage} src={slide.image} alt={t`Picture ${n}`} />
              <div className={styles.slideActions}>
                <button
                  type="button"
                  className={button.secondary}
                  disabled={busy || at === 0}
                  onClick={() => change.mutate({ id: slide.id, to: 'up' })}
                >
                  <Trans>Move up</Trans>
                </button>
                <button
                  type="button"
                  className={button.secondary}
                  disabled={busy || at === slides.length - 1}
                  onClick={() => change.mutate({ id: slide.id, to: 'down' })}
                >
                  <Trans>Move down</Trans>
                </button>
                <button
                  type="button"
                  className={button.ghost}
                  disabled={busy}
                  aria-label={t`Remove picture ${n}`}
                  onClick={() => change.mutate({ id: slide.id, to: 'off' })}
                >
                  <Trans>Remove</Trans>
                </button>
              </div>
            </li>
          )
        })}
      </ol>
      <form className={styles.importForm} onSubmit={submit} noValidate>
        <Field id="slide-file" label={<Trans>Picture to add (JPEG, PNG or WebP)</Trans>}>
          <input
            key={picker}
            id="slide-file"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className={fieldStyles.input}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </Field>
        <button type="submit" className={button.primary} disabled={busy}>
          <Trans>Add to the slider</Trans>
        </button>
      </form>
      <p role="status" className={`${styles.notice} ${fieldStyles.success}`}>
        {notice}
      </p>
      <FormError message={problem} />
    </section>
  )
}
