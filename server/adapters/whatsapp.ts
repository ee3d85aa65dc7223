import type { WhatsAppConfig } from '../config'
import { errorFields, type Logger } from '../log'
import { DeliveryError, type OutgoingCode, type OutgoingNotice, type Sender } from './delivery'

/** Graph API version the requests are written against. */
export const GRAPH_API_VERSION = 'v23.0'
const TIMEOUT_MS = 10_000

/**
 * The body of a WhatsApp Cloud API message using an authentication template: the code fills
 * the body's one parameter and the copy-code button's. The template (its words, in each
 * language) is approved in WhatsApp Manager; WHATSAPP_TEMPLATE names it.
 */
export function templateMessage(config: WhatsAppConfig, message: OutgoingCode) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: config.template,
      language: { code: config.templateLang },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: message.code }] },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: message.code }],
        },
      ],
    },
  }
}

/**
 * A security notice through an approved *utility* template (WHATSAPP_NOTICE_TEMPLATE) whose
 * body has one parameter: until when codes are paused. WhatsApp sends no free text to a
 * customer who has not written first, hence the template.
 */
export function noticeMessage(config: WhatsAppConfig, template: string, notice: OutgoingNotice) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: notice.to.replace(/^\+/, ''),
    type: 'template',
    template: {
      name: template,
      language: { code: config.templateLang },
      components: [{ type: 'body', parameters: [{ type: 'text', text: notice.until }] }],
    },
  }
}

export function createWhatsAppSender(
  config: WhatsAppConfig,
  { logger, fetch: fetchImpl = fetch }: { logger?: Logger; fetch?: typeof fetch },
): Sender {
  const url = `https://graph.facebook.com/${GRAPH_API_VERSION}/${config.phoneNumberId}/messages`

  async function post(body: unknown, purpose: string) {
    let res: Response
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${config.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (err) {
      logger?.error('whatsapp request failed', errorFields(err))
      throw new DeliveryError('WhatsApp could not be reached', { cause: err })
    }
    if (!res.ok) {
      // Graph errors explain themselves ({"error": {"message", "code", ...}}); keep them.
      const detail = await res.text().catch(() => '')
      logger?.error('whatsapp refused the message', {
        status: res.status,
        detail: detail.slice(0, 1000),
        purpose,
      })
      throw new DeliveryError(`WhatsApp answered ${res.status}`)
    }
    await res.body?.cancel()
  }

  const noticeTemplate = config.noticeTemplate
  return {
    kind: 'whatsapp',
    send: (message) => post(templateMessage(config, message), message.purpose),
    ...(noticeTemplate
      ? {
          notify: (notice: OutgoingNotice) =>
            post(noticeMessage(config, noticeTemplate, notice), 'notice'),
        }
      : {}),
  }
}
