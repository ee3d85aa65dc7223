import * as v from 'valibot'
import { PasswordSchema, UsernameSchema } from '../../src/contract/auth'
import { OPERATOR_ROLES, type OperatorRole } from '../../src/contract/console'
import type { OperatorRow } from '../db/schema'
import { parseFields, ValidationError } from '../core/errors'
import {
  createOperator,
  enrolSecondFactor,
  findOperator,
  listOperators,
  type Enrolment,
} from '../services/operators'
import { ACCOUNT_FIELDS, isUniqueViolation } from '../services/users'
import { recordAudit } from '../services/audit'
import { CommandError, table, UsageError, type CliContext, type Command } from './command'

/*
 * Console accounts from the command line (docs/api.md, Console): `users:create --role` makes
 * one and enrols its second factor; `operators:second-factor` enrols a new one (a lost phone).
 */

const OperatorInputSchema = v.object({ username: UsernameSchema, password: PasswordSchema })

/** The store's name, as the authenticator app shows it beside the code. */
async function issuer(ctx: CliContext): Promise<string> {
  const row = await ctx.db.selectFrom('website_info').select('website_name').executeTakeFirst()
  return row?.website_name || 'Store'
}

function enrolmentText(operator: OperatorRow, enrolment: Enrolment): string {
  return [
    `Second factor of ${operator.username} (${operator.role}): add this to an authenticator app`,
    '(as a QR code, or typed in), then sign in to the operator console:',
    '',
    `  ${enrolment.uri}`,
    '',
    'Recovery codes, each signs in once in place of the app (keep them apart from the phone):',
    '',
    ...enrolment.recoveryCodes.map((code) => `  ${code}`),
  ].join('\n')
}

async function enrol(ctx: CliContext, operator: OperatorRow) {
  const enrolment = await enrolSecondFactor(ctx.db, ctx.config.tokenSecret, operator, {
    issuer: await issuer(ctx),
    actor: ctx.actor,
    now: ctx.clock.now(),
  })
  return {
    json: {
      username: operator.username,
      role: operator.role,
      otpauth_uri: enrolment.uri,
      recovery_codes: enrolment.recoveryCodes,
    },
    text: enrolmentText(operator, enrolment),
  }
}

/** users:create --role owner|operator: a console account, with its second factor. */
export async function createConsoleAccount(
  ctx: CliContext,
  values: Record<string, unknown>,
  role: OperatorRole,
) {
  for (const name of ['username', 'password'])
    if (values[name] === undefined) throw new UsageError(`--${name} is required`)
  let input: v.InferOutput<typeof OperatorInputSchema>
  try {
    input = parseFields(OperatorInputSchema, values, ACCOUNT_FIELDS)
  } catch (err) {
    if (err instanceof ValidationError) {
      const { message, errors } = err.toReply('en')
      throw new CommandError(message, errors)
    }
    throw err
  }
  let operator: OperatorRow
  try {
    operator = await createOperator(ctx.db, ctx.passwords, { ...input, role }, ctx.clock.now())
  } catch (err) {
    if (isUniqueViolation(err))
      throw new CommandError(`A console account named ${input.username} exists already.`)
    throw err
  }
  await recordAudit(ctx.db, {
    actor: ctx.actor,
    action: 'console.create_operator',
    details: { operator: operator.username, role },
    now: ctx.clock.now(),
  })
  return enrol(ctx, operator)
}

export const roleOption = (value: unknown): OperatorRole => {
  const role = OPERATOR_ROLES.find((r) => r === String(value).toLowerCase())
  if (!role) throw new UsageError(`--role must be one of ${OPERATOR_ROLES.join(', ')}`)
  return role
}

export const operatorCommands: Record<string, Command> = {
  'operators:second-factor': {
    summary:
      "Enrol a console account's second factor anew (a lost phone): prints the otpauth:// URI and new recovery codes; the old ones and its sessions stop.",
    usage: '<username>',
    positionals: ['username'],
    async run(ctx, args) {
      const username = args.positionals[0]!
      const operator = await findOperator(ctx.db, username)
      if (!operator) throw new CommandError(`No console account named ${username}.`)
      return enrol(ctx, operator)
    },
  },

  'operators:list': {
    summary: 'List the console accounts (owners and operators).',
    usage: '',
    async run(ctx) {
      const rows = (await listOperators(ctx.db)).map((o) => ({
        id: o.id,
        username: o.username,
        role: o.role,
        second_factor: o.totp_sealed !== null,
        created_at: o.created_at,
        disabled_at: o.disabled_at,
      }))
      return { json: rows, text: table(rows, '(no console accounts)') }
    },
  },
}
