import * as v from 'valibot'
import { EmailSchema, PasswordSchema, UsernameSchema } from '../../src/contract/auth'
import { PhoneSchema } from '../../src/contract/sign-up'
import { CurrencySchema, UserTypeSchema } from '../../src/contract/profile'
import { fromMicros } from '../../src/domain/money'
import type { UserRow, UserType } from '../db/schema'
import { parseFields, ValidationError } from '../core/errors'
import { setAccountType } from '../services/customers'
import { ACCOUNT_FIELDS, duplicateProblems, insertUser } from '../services/users'
import { choice, CommandError, table, UsageError, userNamed, type Command } from './command'
import { createConsoleAccount, roleOption } from './operators'

const USER_TYPES = UserTypeSchema.options
const CURRENCIES = CurrencySchema.options

// The operator may leave the e-mail out (only sign-up requires it).
const OperatorUserSchema = v.object({
  username: UsernameSchema,
  phone_number: PhoneSchema,
  email: v.optional(EmailSchema),
  password: PasswordSchema,
})

/** The English messages of a validation failure, for the terminal. */
function invalid(err: ValidationError): CommandError {
  const { message, errors } = err.toReply('en')
  const lines = Object.entries(errors).map(([field, list]) => `  ${field}: ${list.join('; ')}`)
  return new CommandError(
    lines.length > 1 ? `Invalid input:\n${lines.join('\n')}` : message,
    errors,
  )
}

function view(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    phone_number: user.phone_number,
    email: user.email,
    type: user.type,
    currency: user.currency,
    locale: user.locale,
    balance: fromMicros(user.balance),
    created_at: user.created_at,
    disabled_at: user.disabled_at,
  }
}

export const userCommands: Record<string, Command> = {
  'users:create': {
    summary:
      'Create an account (a company account, for instance: they cannot sign up), or with --role a console account (prints its second factor).',
    usage:
      '--username U --phone P [--email E] --password PW [--type COMPANY|CUSTOMER] [--currency USD|LBP]  |  --role owner|operator --username U --password PW',
    options: {
      role: { type: 'string' },
      username: { type: 'string' },
      phone: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      type: { type: 'string' },
      currency: { type: 'string' },
    },
    async run(ctx, args) {
      if (args.values.role !== undefined)
        return createConsoleAccount(ctx, args.values, roleOption(args.values.role))
      for (const name of ['username', 'phone', 'password']) {
        if (args.values[name] === undefined) throw new UsageError(`--${name} is required`)
      }
      const type = choice(args, 'type', USER_TYPES, 'CUSTOMER')
      const currency = choice(args, 'currency', CURRENCIES, 'USD')
      let input: v.InferOutput<typeof OperatorUserSchema>
      try {
        input = parseFields(
          OperatorUserSchema,
          {
            username: args.values.username,
            phone_number: args.values.phone,
            email: args.values.email,
            password: args.values.password,
          },
          ACCOUNT_FIELDS,
        )
      } catch (err) {
        if (err instanceof ValidationError) throw invalid(err)
        throw err
      }
      const account = { ...input, email: input.email ?? null }
      const taken = await duplicateProblems(ctx.db, account)
      if (taken.length > 0) throw invalid(new ValidationError(taken, ACCOUNT_FIELDS))
      const user = await insertUser(
        ctx.db,
        {
          username: account.username,
          phone_number: account.phone_number,
          email: account.email,
          password_hash: await ctx.passwords.hash(account.password),
          type,
          currency,
          locale: 'en',
        },
        ctx.clock.now(),
      )
      return {
        json: view(user),
        text: `Created ${user.type} account ${user.username} (id ${user.id}, ${user.phone_number}).`,
      }
    },
  },

  'users:set-type': {
    summary: 'Make an account a company (company pricing) or a customer.',
    usage: '<username> <COMPANY|CUSTOMER>',
    positionals: ['username', 'type'],
    async run(ctx, args) {
      const [username, typeArg] = args.positionals as [string, string]
      const type = USER_TYPES.find((t) => t === typeArg.toUpperCase()) as UserType | undefined
      if (!type) throw new UsageError(`type must be one of ${USER_TYPES.join(', ')}`)
      const user = await userNamed(ctx, username)
      const { before, after: updated } = await setAccountType(ctx.db, user, type, {
        actor: ctx.actor,
        now: ctx.clock.now(),
      })
      return {
        json: view(updated),
        text: `${updated.username} is now ${updated.type} (was ${before.type}).`,
      }
    },
  },

  'users:list': {
    summary: 'List every account, oldest first.',
    usage: '',
    async run(ctx) {
      const users = await ctx.db.selectFrom('users').selectAll().orderBy('id').execute()
      const rows = users.map(view)
      return { json: rows, text: table(rows, '(no users)') }
    },
  },
}
