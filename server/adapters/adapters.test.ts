import nodemailer from 'nodemailer'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../log'
import { describeEachDatabase } from '../test/context'
import { DeliveryError, outboxChannels, type OutgoingCode, type OutgoingNotice } from './delivery'
import { createMailSender } from './mail'
import { createOutboxSender, readOutbox } from './outbox'
import { createDelivery } from './senders'
import { createWhatsAppSender, GRAPH_API_VERSION } from './whatsapp'

const message: OutgoingCode = {
  channel: 'whatsapp',
  to: '+96170000001',
  purpose: 'login',
  code: '0427',
  locale: 'en',
  body: 'Your verification code is 0427.',
  subject: 'Your verification code',
}

const whatsapp = {
  token: 'EAAB-secret',
  phoneNumberId: '1098765432',
  template: 'store_code',
  templateLang: 'ar',
}

describe('WhatsApp sender', () => {
  it('posts the authentication template with the code to the Cloud API', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const sender = createWhatsAppSender(whatsapp, {
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init ?? {} })
        return new Response('{"messages":[{"id":"wamid.1"}]}', { status: 200 })
      },
    })
    await sender.send(message)
    expect(calls).toHaveLength(1)
    const [call] = calls
    expect(call!.url).toBe(`https://graph.facebook.com/${GRAPH_API_VERSION}/1098765432/messages`)
    expect(call!.init.method).toBe('POST')
    expect(call!.init.headers).toMatchObject({
      Authorization: 'Bearer EAAB-secret',
      'Content-Type': 'application/json',
    })
    expect(JSON.parse(String(call!.init.body))).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '96170000001',
      type: 'template',
      template: {
        name: 'store_code',
        language: { code: 'ar' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '0427' }] },
          {
            type: 'button',
            sub_type: 'url',
            index: '0',
            parameters: [{ type: 'text', text: '0427' }],
          },
        ],
      },
    })
  })

  it('turns a refusal or a network failure into a DeliveryError and logs the reason', async () => {
    const logged: string[] = []
    const logger = createLogger('error', (line) => logged.push(line))
    const refused = createWhatsAppSender(whatsapp, {
      logger,
      fetch: async () =>
        new Response('{"error":{"message":"Template name does not exist","code":132001}}', {
          status: 400,
        }),
    })
    await expect(refused.send(message)).rejects.toBeInstanceOf(DeliveryError)
    expect(logged.join('')).toContain('Template name does not exist')
    expect(logged.join('')).not.toContain('0427')

    const offline = createWhatsAppSender(whatsapp, {
      logger,
      fetch: async () => {
        throw new TypeError('fetch failed')
      },
    })
    await expect(offline.send(message)).rejects.toBeInstanceOf(DeliveryError)
  })
})

describe('security notices', () => {
  const notice: OutgoingNotice = {
    channel: 'whatsapp',
    to: '+96170000001',
    locale: 'en',
    subject: 'Wrong codes were entered for your account',
    body: 'Several wrong verification codes were entered...',
    until: 'Nov 26, 2026, 4:00 PM',
  }

  it('go by WhatsApp only through WHATSAPP_NOTICE_TEMPLATE, with the time as its parameter', async () => {
    expect(createWhatsAppSender(whatsapp, {}).notify).toBeUndefined()
    const bodies: unknown[] = []
    const sender = createWhatsAppSender(
      { ...whatsapp, noticeTemplate: 'store_notice' },
      {
        fetch: async (_url, init) => {
          bodies.push(JSON.parse(String(init?.body)))
          return new Response('{}', { status: 200 })
        },
      },
    )
    await sender.notify!(notice)
    expect(bodies).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '96170000001',
        type: 'template',
        template: {
          name: 'store_notice',
          language: { code: 'ar' },
          components: [
            { type: 'body', parameters: [{ type: 'text', text: 'Nov 26, 2026, 4:00 PM' }] },
          ],
        },
      },
    ])
  })

  it('go by e-mail as plain text', async () => {
    const mails: nodemailer.SendMailOptions[] = []
    const sender = createMailSender({ url: 'smtp://x', from: 'a@b.c' }, {
      sendMail: async (mail: nodemailer.SendMailOptions) => void mails.push(mail),
    } as unknown as nodemailer.Transporter)
    await sender.notify!({ ...notice, channel: 'email', to: 'demo@example.com' })
    expect(mails).toEqual([
      {
        from: 'a@b.c',
        to: 'demo@example.com',
        subject: 'Wrong codes were entered for your account',
        text: 'Several wrong verification codes were entered...',
      },
    ])
  })
})

describe('mail sender', () => {
  it('sends a plain-text mail from MAIL_FROM', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true })
    const sent: unknown[] = []
    const sender = createMailSender(
      { url: 'smtp://mail.example.com', from: 'Store <no-reply@shop.example.com>' },
      {
        sendMail: async (mail: nodemailer.SendMailOptions) => {
          const info = await transport.sendMail(mail)
          sent.push(JSON.parse(String(info.message)))
          return info
        },
      } as unknown as nodemailer.Transporter,
    )
    await sender.send({ ...message, channel: 'email', to: 'demo@example.com', purpose: 'reset' })
    expect(sent).toEqual([
      expect.objectContaining({
        from: { address: 'no-reply@shop.example.com', name: 'Store' },
        to: [{ address: 'demo@example.com', name: '' }],
        subject: 'Your verification code',
        text: 'Your verification code is 0427.',
      }),
    ])
  })

  it('turns a transport failure into a DeliveryError', async () => {
    const sender = createMailSender({ url: 'smtp://x', from: 'a@b.c' }, {
      sendMail: () => Promise.reject(new Error('ECONNREFUSED')),
    } as unknown as nodemailer.Transporter)
    await expect(sender.send(message)).rejects.toBeInstanceOf(DeliveryError)
  })
})

describeEachDatabase(
  'local outbox',
  (ctx) => {
    it('stores every message and logs the code only outside production', async () => {
      const lines: string[] = []
      const logger = createLogger('info', (line) => lines.push(line))
      await createOutboxSender(ctx.db, logger, { logCodes: false }).send({
        ...message,
        to: '+96170999001',
      })
      await createOutboxSender(ctx.db, logger, { logCodes: true }).send({
        ...message,
        to: '+96170999001',
        code: '9911',
      })
      const [prod, dev] = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(prod).toMatchObject({ msg: 'code kept in the local outbox', to: '+96170999001' })
      expect(prod).not.toHaveProperty('code')
      expect(dev).toMatchObject({ code: '9911' })
      const read = (channels: ('whatsapp' | 'email')[]) =>
        readOutbox(ctx.db, { to: '+96170999001', channels })
      expect((await read(['whatsapp', 'email'])).map((e) => e.code)).toEqual(['9911', '0427'])
      expect((await read(['whatsapp'])).map((e) => e.code)).toEqual(['9911', '0427'])
      // A channel a real sender now delivers is never read back.
      expect(await read(['email'])).toEqual([])
      expect(await read([])).toEqual([])
    })

    it('is used for each channel that has no real sender configured', () => {
      const logger = createLogger('silent')
      const none = createDelivery(
        { nodeEnv: 'test', whatsapp: undefined, smtp: undefined },
        ctx.db,
        logger,
      )
      expect([none.phone.kind, none.email.kind, outboxChannels(none)]).toEqual([
        'outbox',
        'outbox',
        ['whatsapp', 'email'],
      ])
      const smtp = { url: 'smtp://mail.example.com', from: 'a@b.c' }
      const both = createDelivery({ nodeEnv: 'test', whatsapp, smtp }, ctx.db, logger)
      expect([both.phone.kind, both.email.kind, outboxChannels(both)]).toEqual([
        'whatsapp',
        'smtp',
        [],
      ])
      const half = createDelivery({ nodeEnv: 'test', whatsapp, smtp: undefined }, ctx.db, logger)
      expect([half.phone.kind, half.email.kind, outboxChannels(half)]).toEqual([
        'whatsapp',
        'outbox',
        ['email'],
      ])
    })
  },
  { only: ['sqlite'] },
)
