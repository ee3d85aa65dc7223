import * as v from 'valibot'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { t, type MessageId } from '../i18n'
import type { Locale } from '../../src/contract/common'

/**
 * An expected failure with a reply for the user: services throw it, the app's error handler
 * turns it into `{"message": ...}` in the request's language. Anything else thrown is a bug
 * and becomes a generic 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly messageId: MessageId,
    readonly values?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(messageId, options)
    this.name = 'ApiError'
  }
}

/** A failure that passes: the reply carries Retry-After. */
export class RetryLaterError extends ApiError {
  constructor(
    status: 429 | 503,
    messageId: MessageId,
    readonly retryAfterSeconds: number,
    values?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(status, messageId, values, options)
    this.name = 'RetryLaterError'
  }
}

/** 429 with a Retry-After header: a limit on codes or requests was reached. */
export class TooManyRequestsError extends RetryLaterError {
  constructor(messageId: MessageId, retryAfterSeconds: number, values?: Record<string, unknown>) {
    super(429, messageId, retryAfterSeconds, values)
    this.name = 'TooManyRequestsError'
  }
}

/** 503 with a Retry-After header: not the caller's fault, and over soon (a budget, a lock). */
export class ServiceUnavailableError extends RetryLaterError {
  constructor(
    messageId: MessageId,
    retryAfterSeconds: number,
    values?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(503, messageId, retryAfterSeconds, values, options)
    this.name = 'ServiceUnavailableError'
  }
}

/** How a form's field is named to the user, and what to say when its format is wrong. */
export interface FieldMessages {
  label: MessageId
  invalid?: MessageId
  /** Placeholders of the `invalid` message (e.g. a minimum length). */
  values?: Record<string, unknown>
}

export interface FieldProblem {
  field: string
  id: MessageId
  values?: Record<string, unknown>
}

/** Bad input; the app's error handler replies 422 with every field's message. */
export class ValidationError extends Error {
  constructor(
    readonly problems: FieldProblem[],
    readonly labels: Record<string, FieldMessages>,
  ) {
    super('validation failed')
    this.name = 'ValidationError'
  }

  /** Laravel's shape (docs/api.md, Errors): the first message, then all by field. */
  toReply(locale: Locale) {
    // Keyed by the client's field names: `constructor` or `__proto__` must be plain keys here.
    const errors: Record<string, string[]> = Object.create(null)
    for (const p of this.problems) {
      const label = this.labels[p.field]?.label
      const field = label ? t(locale, label) : p.field
      ;(errors[p.field] ??= []).push(t(locale, p.id, { ...p.values, field }))
    }
    const first = Object.values(errors)[0]?.[0] ?? ''
    return { message: first, errors }
  }
}

type Issue = v.BaseIssue<unknown>

function problemFor(
  issue: Issue,
  field: string,
  messages: FieldMessages | undefined,
): FieldProblem {
  const empty = issue.input === undefined || issue.input === null || issue.input === ''
  if (
    (issue.kind === 'schema' && empty) ||
    (issue.type === 'min_length' && issue.requirement === 1)
  ) {
    return { field, id: 'validation.required' }
  }
  if (issue.type === 'max_length') {
    return { field, id: 'validation.max_length', values: { max: issue.requirement } }
  }
  return { field, id: messages?.invalid ?? 'validation.invalid', values: messages?.values }
}

/**
 * Parses input with a contract schema. The contract carries shape and bounds only; the words
 * come from the server catalogue, so the reply is in the caller's language.
 */
export function parseFields<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  fields: Record<string, FieldMessages>,
): v.InferOutput<S> {
  // One message per field is all a form shows; stop each field's pipe at its first failure.
  const result = v.safeParse(schema, input, { abortPipeEarly: true })
  if (result.success) return result.output
  const problems: FieldProblem[] = []
  const seen = new Set<string>()
  for (const issue of result.issues) {
    const field = String(issue.path?.[0]?.key ?? '')
    if (seen.has(field)) continue
    seen.add(field)
    problems.push(problemFor(issue, field, fields[field]))
  }
  throw new ValidationError(problems, fields)
}
