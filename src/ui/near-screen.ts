import { useCallback, useState } from 'react'

/**
 * How far below (or above) the screen a picture starts loading. Chrome's own `loading="lazy"`
 * reaches 1,250 px and more: the whole first page of a grid's cards, whose pictures then
 * compete with the first screen's for a slow phone's CPU (docs/performance.md, Pictures).
 */
const MARGIN = '200px 0px'

let observer: IntersectionObserver | undefined
const onNear = new Map<Element, () => void>()

function watch(element: Element, near: () => void): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue
        onNear.get(entry.target)?.()
        unwatch(entry.target)
      }
    },
    { rootMargin: MARGIN },
  )
  onNear.set(element, near)
  observer.observe(element)
  return () => unwatch(element)
}

function unwatch(element: Element) {
  observer?.unobserve(element)
  onNear.delete(element)
}

/**
 * Whether the element given to `ref` has come near the screen (`true` from the start when
 * `now`). The server's markup renders it as not near, as the browser's first render does. One
 * observer serves every element.
 */
export function useNearScreen(
  now: boolean,
): [near: boolean, ref: (element: Element | null) => void | (() => void)] {
  const [near, setNear] = useState(now)
  const ref = useCallback(
    (element: Element | null) => {
      if (element && !near) return watch(element, () => setNear(true))
    },
    [near],
  )
  return [near, ref]
}
