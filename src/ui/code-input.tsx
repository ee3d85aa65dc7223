import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react'
import { useLingui } from '@lingui/react/macro'
import * as styles from './code-input.css'

/**
 * Four one-digit boxes for a verification code: typing moves on, backspace moves back, pasting
 * the digits fills them all. Always left-to-right, as digits are read in both languages.
 */
export function CodeInput({
  value,
  onChange,
  length = 4,
  invalid = false,
  autoFocus = true,
}: {
  value: string
  onChange: (code: string) => void
  length?: number
  invalid?: boolean
  autoFocus?: boolean
}) {
  const { t } = useLingui()
  const refs = useRef<Array<HTMLInputElement | null>>([])
  const digits = Array.from({ length }, (_, i) => value[i] ?? '')

  const focus = (index: number) => refs.current[Math.max(0, Math.min(length - 1, index))]?.focus()

  const setDigit = (index: number, digit: string) => {
    const next = digits.slice()
    next[index] = digit
    onChange(next.join('').slice(0, length))
  }

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (/^\d$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Typing the digit a box already holds changes nothing, so no change event would move
      // the focus on: take the key here instead.
      event.preventDefault()
      setDigit(index, event.key)
      focus(index + 1)
    } else if (event.key === 'Backspace' && !digits[index]) {
      event.preventDefault()
      setDigit(index - 1, '')
      focus(index - 1)
    } else if (event.key === 'ArrowLeft') focus(index - 1)
    else if (event.key === 'ArrowRight') focus(index + 1)
  }

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text').replace(/\D/g, '').slice(0, length)
    if (!pasted) return
    event.preventDefault()
    onChange(pasted)
    focus(pasted.length)
  }

  return (
    <div className={styles.boxes} role="group" aria-label={t`Verification code`}>
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            refs.current[index] = element
          }}
          className={styles.box}
          value={digit}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          pattern="[0-9]"
          maxLength={1}
          autoFocus={autoFocus && index === 0}
          aria-label={t`Digit ${index + 1} of ${length}`}
          aria-invalid={invalid}
          onPaste={onPaste}
          onFocus={(event) => event.target.select()}
          onKeyDown={onKeyDown(index)}
          onChange={(event) => {
            const typed = event.target.value.replace(/\D/g, '')
            if (typed.length > 1) {
              // Autofill or a fast typist: spread the digits over the following boxes.
              const next = (digits.slice(0, index).join('') + typed).slice(0, length)
              onChange(next)
              focus(next.length)
              return
            }
            setDigit(index, typed)
            if (typed) focus(index + 1)
          }}
        />
      ))}
    </div>
  )
}
