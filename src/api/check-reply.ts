import * as v from 'valibot'

/**
 * A reply checked against its schema. Loaded with the first reply (api/client.ts), so valibot
 * stays off the first load.
 */
export function checkReply<S extends v.GenericSchema>(
  path: string,
  schema: S,
  payload: unknown,
): { ok: true; output: v.InferOutput<S> } | { ok: false } {
  const parsed = v.safeParse(schema, payload)
  if (parsed.success) return { ok: true, output: parsed.output }
  console.error('Reply does not match the contract', path, v.flatten(parsed.issues))
  return { ok: false }
}
