import { describe, expect, it } from 'vitest'
import { toFormData } from './form-data'

describe('toFormData', () => {
  it('drops empty, null, undefined and their string spellings', () => {
    const form = toFormData({ a: '', b: null, c: undefined, d: 'null', e: 'undefined', f: 'kept' })
    expect([...form.keys()]).toEqual(['f'])
  })

  it('keeps zero, as a number and as text', () => {
    const form = toFormData({ qty: 0, text: '0' })
    expect(form.get('qty')).toBe('0')
    expect(form.get('text')).toBe('0')
  })

  it('sends checkboxes as 1 or 0', () => {
    const form = toFormData({ remember: true, agree: false })
    expect(form.get('remember')).toBe('1')
    expect(form.get('agree')).toBe('0')
  })

  it('keeps files', () => {
    const file = new File(['x'], 'receipt.png', { type: 'image/png' })
    const sent = toFormData({ image: file }).get('image')
    expect(sent).toBeInstanceOf(File)
    expect((sent as File).name).toBe('receipt.png')
  })
})
