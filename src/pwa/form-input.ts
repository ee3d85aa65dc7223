/** True when some field on the page holds what the user typed; a reload would lose it. */
export function formHoldsInput(root: ParentNode = document): boolean {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'form input:not([type=hidden]):not([type=search]):not([type=checkbox]):not([type=radio]), form textarea',
  )
  return Array.from(fields).some((field) =>
    field instanceof HTMLInputElement && field.type === 'file'
      ? (field.files?.length ?? 0) > 0
      : field.value.trim() !== '',
  )
}
