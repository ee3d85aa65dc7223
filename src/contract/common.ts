import * as v from 'valibot'
import { INTL_LOCALES, LOCALE_CODES, type Locale } from './locales'

/** What the server writes for a schema: its input, before the client's transforms. */
export type Wire<S extends v.GenericSchema> = v.InferInput<S>

/** Languages the store speaks; `local` on every call. */
export const LocaleSchema = v.picklist(LOCALE_CODES)
export { INTL_LOCALES, type Locale }

/** A body that only carries a message, for successes and errors alike. */
export const MessageReplySchema = v.object({ message: v.string() })
export type MessageReply = v.InferOutput<typeof MessageReplySchema>

/** Laravel-style validation failure (HTTP 422): the first message plus every field's messages. */
export const ValidationErrorReplySchema = v.object({
  message: v.string(),
  errors: v.record(v.string(), v.array(v.string())),
})
export type ValidationErrorReply = v.InferOutput<typeof ValidationErrorReplySchema>

export const ImageSchema = v.object({ id: v.number(), image: v.string() })
export type Image = v.InferOutput<typeof ImageSchema>
