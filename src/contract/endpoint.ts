import type * as v from 'valibot'

/* One entry of the endpoint table (./endpoints.ts). */

/**
 * Who may call: anyone; anyone, a session making it the user's (`optional`); a signed-in user
 * (`user`); a user or an API token from its whitelist (`user-or-token`); the reseller API's
 * `key` field (`api-key`); the development server only (`dev`); a console session of any role
 * (`operator`) or of the owner (`owner`).
 */
export type EndpointAuth =
  'public' | 'optional' | 'user' | 'user-or-token' | 'api-key' | 'dev' | 'operator' | 'owner'

export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE'
  path: `/${string}`
  auth: EndpointAuth
  /** The query that picks this entry where one path does more than one thing. */
  variant?: Readonly<Record<string, string>>
  /** The form fields the call reads (docs/api.md, Request bodies). */
  body?: v.GenericSchema
  /** The JSON reply of a success, or `file` for bytes. */
  reply: v.GenericSchema | 'file'
}
