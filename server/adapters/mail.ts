import nodemailer, { type Transporter } from 'nodemailer'
import type { SmtpConfig } from '../config'
import { DeliveryError, type OutgoingCode, type OutgoingNotice, type Sender } from './delivery'

/** E-mail through SMTP (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function createMailSender(
  config: SmtpConfig,
  transport: Transporter = nodemailer.createTransport(config.url),
): Sender {
  return {
    kind: 'smtp',
    async send(message: OutgoingCode) {
      try {
        await transport.sendMail({
          from: config.from,
          to: message.to,
          subject: message.subject,
          text: message.body,
        })
      } catch (err) {
        throw new DeliveryError('the mail server refused the message', { cause: err })
      }
    },
    async notify(notice: OutgoingNotice) {
      try {
        await transport.sendMail({
          from: config.from,
          to: notice.to,
          subject: notice.subject,
          text: notice.body,
        })
      } catch (err) {
        throw new DeliveryError('the mail server refused the notice', { cause: err })
      }
    },
  }
}
