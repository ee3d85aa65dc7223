/**
 * What the code step needs from the step before it. Username, phone_number, email and code
 * are kept in session storage; the password stays in memory only, so no script can read it
 * back from storage (after a reload the code page asks for it again).
 */
const KEYS = ['username', 'phone_number', 'email', 'code', 'remember'] as const
type Key = (typeof KEYS)[number]

let password: string | null = null

export const pending = {
  get(key: Key): string | null {
    try {
      return sessionStorage.getItem(key)
    } catch {
      return null
    }
  },
  set(values: Partial<Record<Key, string | null | undefined>>): void {
    try {
      for (const [key, value] of Object.entries(values)) {
        if (value) sessionStorage.setItem(key, value)
        else sessionStorage.removeItem(key)
      }
    } catch {
      // Storage refused: the code step will send the customer back to the form.
    }
  },
  get password(): string | null {
    return password
  },
  set password(value: string | null) {
    password = value
  },
  clear(): void {
    password = null
    this.set(Object.fromEntries(KEYS.map((key) => [key, null])))
  },
}
