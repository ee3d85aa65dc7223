import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { t, type MessageId } from '../i18n'
import type { AppEnv } from './env'

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

export function messageReply<E extends AppEnv>(
  c: Context<E>,
  status: ContentfulStatusCode,
  id: MessageId,
  values?: Record<string, unknown>,
) {
  return c.json({ message: t(c.var.locale, id, values) }, status)
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
