/** A value a form may hold before it is sent. */
export type FormValue = string | number | boolean | Blob | null | undefined

/**
 * A submission drops empty, null, 'null' and 'undefined' values, keeps zero, and sends
 * checkboxes (booleans) as 1 or 0 (see docs/api.md, Request bodies).
 */
export function toFormData(values: Record<string, FormValue>): FormData {
  const form = new FormData()
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue
    if (typeof value === 'boolean') form.append(key, value ? '1' : '0')
    else if (typeof value === 'number') {
      if (Number.isFinite(value)) form.append(key, String(value))
    } else if (typeof value === 'string') {
      if (value === '' || value === 'null' || value === 'undefined') continue
      form.append(key, value)
    } else form.append(key, value)
  }
  return form
}
