/** The split-off route of scripts/lib/framework-floor.tsx. */
export default function Other() {
  return <p>Other</p>
}
