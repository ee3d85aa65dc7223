import { useEffect, useState, type RefObject } from 'react'
import { whenIdle } from '../ui/when-idle'

/** What a floating button must never hide: controls, pictures and text. */
const SOLID =
  'a, button, input, select, textarea, label, img, svg, [role="button"], [tabindex]:not([tabindex="-1"])'

/**
 * Rows of points this far apart at most: a line of text (16 px and more) or a control that
 * reaches into the spot contains one of them, however little of it does.
 */
const ROW_STEP_PX = 6
const COLUMNS = [0.1, 0.37, 0.63, 0.9]

function hidesSomething(probe: DOMRect, own: Element): boolean {
  const seen = new Set<Element>()
  const rows = Math.ceil((probe.height - 2) / ROW_STEP_PX)
  for (let row = 0; row <= rows; row++)
    for (const fx of COLUMNS) {
      const x = probe.left + probe.width * fx
      const y = probe.top + 1 + ((probe.height - 2) * row) / rows
      for (const element of document.elementsFromPoint(x, y)) {
        if (own.contains(element) || seen.has(element)) continue
        seen.add(element)
        if (element.closest(SOLID)) return true
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          for (const box of range.getClientRects())
            if (
              box.right > probe.left &&
              box.left < probe.right &&
              box.bottom > probe.top &&
              box.top < probe.bottom
            )
              return true
        }
      }
    }
  return false
}

/**
 * Whether the spot of a floating element (`probe`, its full size, never hit by pointers) lies
 * over nothing but background: checked after every scroll, resize and change of the page.
 * The element can then tuck itself aside while a control or text is under that spot.
 */
export function useClearSpot(probe: RefObject<Element | null>, own: RefObject<Element | null>) {
  const [clear, setClear] = useState(true)
  useEffect(() => {
    let frame = 0
    let cancelIdle: (() => void) | undefined
    const measure = () => {
      if (probe.current && own.current)
        setClear(!hidesSomething(probe.current.getBoundingClientRect(), own.current))
    }
    // At the customer's scroll or resize, in the next frame.
    const check = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(measure)
    }
    // After the page changed (it changes a lot while it starts), once the browser is idle: the
    // points probed make the browser lay the page out, which costs a slow phone a long task.
    const checkWhenIdle = () => {
      cancelIdle?.()
      cancelIdle = whenIdle(measure)
    }
    checkWhenIdle()
    window.addEventListener('scroll', check, { passive: true })
    window.addEventListener('resize', check)
    const observer = new MutationObserver(checkWhenIdle)
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    return () => {
      cancelAnimationFrame(frame)
      cancelIdle?.()
      window.removeEventListener('scroll', check)
      window.removeEventListener('resize', check)
      observer.disconnect()
    }
  }, [probe, own])
  return clear
}
