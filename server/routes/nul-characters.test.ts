import * as v from 'valibot'
import { expect, it } from 'vitest'
import { MessageReplySchema } from '../../src/contract/common'
import { describeEachDatabase } from '../test/context'
import { postForm } from '../test/accounts'
import { customer, get } from '../test/orders'

/*
 * PostgreSQL cannot store or compare text holding a NUL character (U+0000): a field or a query
 * with one is refused with 422 on every database, before it reaches a statement.
 */
describeEachDatabase('NUL characters', (ctx) => {
  const refusal =
    'What was sent contains a character that cannot be used (NUL). Remove it and try again.'

  it('are refused in form fields, signed out and signed in, in the language asked for', async () => {
    const { token } = await customer(ctx)
    const posts: [string, Record<string, string>, string?][] = [
      ['messages', { name: 'a\u0000b', phone_number: '+961 70 123 456', message: 'hi' }],
      ['login?check=1', { username: 'a\u0000b', password: 'password-1' }],
      ['send/verification-code', { email: 'a\u0000@example.com' }],
      ['change/locale', { locale: 'e\u0000n' }, token],
    ]
    for (const [path, fields, bearer] of posts) {
      const res = await postForm(ctx.app, path, fields, { token: bearer })
      expect(res.status, path).toBe(422)
      expect(v.parse(MessageReplySchema, await res.json()).message).toBe(refusal)
    }
    const arabic = await postForm(ctx.app, 'messages?local=ar', {
      name: 'x',
      phone_number: '+961 70 123 456',
      message: 'مرحبا\u0000',
    })
    expect(arabic.status).toBe(422)
    expect(v.parse(MessageReplySchema, await arabic.json()).message).toBe(
      'يحتوي ما أُرسل على حرف لا يمكن استخدامه (NUL). احذفه وحاول مرة أخرى.',
    )
    const stored = await ctx.db.selectFrom('messages').select('id').execute()
    expect(stored).toEqual([])
  })

  it('are refused in a search or a filter, and the same search without one answers', async () => {
    const { token } = await customer(ctx)
    for (const path of [
      'products?search=PUBG%00',
      'orders?player_name=%00',
      'th-p-apis/1?number=1%002',
    ]) {
      const res = await get(ctx.app, path, token)
      expect(res.status, path).toBe(422)
      expect(v.parse(MessageReplySchema, await res.json()).message).toBe(refusal)
    }
    expect((await get(ctx.app, 'products?search=PUBG')).status).toBe(200)
  })
})
