import { EARLY_MODULES_ID } from '../api/early-replies'
import { nextTask } from './when-idle'

/** Links appended in one task: each starts a request, a millisecond or two on a slow phone. */
const PER_TASK = 3

/**
 * Preloads the files the build names in the page under `key` (EARLY_MODULES: a lazy piece's
 * chunk, the chunks it imports and its styles), a few in each task, and resolves once they are
 * linked and the styles have loaded. Called before the piece's import: Vite's loader would
 * otherwise link all of them at once in the task that asks for the piece (a React effect, after
 * the page's hydration), one long task on a slow phone; it leaves alone what is linked already.
 * Never fails: without the list (the development server) the import preloads as it would, and
 * a file that cannot load fails the import itself.
 */
export async function preloadListed(key: string): Promise<void> {
  let files: string[]
  try {
    const listed = document.getElementById(EARLY_MODULES_ID)?.textContent
    files = (listed && (JSON.parse(listed) as Record<string, string[] | undefined>)[key]) || []
  } catch {
    return
  }
  const linked = new Set(
    [...document.querySelectorAll<HTMLLinkElement>('link[href]')].map((link) => link.href),
  )
  const wanted = files.filter((file) => !linked.has(new URL(file, document.baseURI).href))
  const styles: Promise<unknown>[] = []
  for (let from = 0; from < wanted.length; from += PER_TASK) {
    await nextTask()
    for (const file of wanted.slice(from, from + PER_TASK)) {
      const link = document.createElement('link')
      // As Vite's loader links them, so that it finds them.
      link.rel = file.endsWith('.css') ? 'stylesheet' : 'modulepreload'
      link.crossOrigin = ''
      link.href = file
      if (link.rel === 'stylesheet')
        styles.push(
          new Promise((settle) => {
            link.addEventListener('load', settle)
            link.addEventListener('error', settle)
          }),
        )
      document.head.appendChild(link)
    }
  }
  await Promise.all(styles)
}
