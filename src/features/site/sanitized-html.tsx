import DOMPurify from 'dompurify'

/**
 * Server text that carries HTML, sanitised: only safe markup reaches the page. Its own chunk
 * (about-page.tsx), loaded only for a text with markup.
 */
export function SanitizedHtml({ text, className }: { text: string; className: string }) {
  const html = DOMPurify.sanitize(text, { USE_PROFILES: { html: true } })
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
}
