import { runCli } from '../cli/run'
import { testPasswords, type TestContext } from './context'

/** Runs an operator command in-process on the test database and collects what it printed. */
export function runOperator(ctx: TestContext, ...argv: string[]) {
  return runOperatorWith(ctx, {}, ...argv)
}

/** The same, with standard input and extra settings (OPERATOR, for one). */
export async function runOperatorWith(
  ctx: TestContext,
  { stdin = '', env = {} }: { stdin?: string; env?: Record<string, string> },
  ...argv: string[]
) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: {
      NODE_ENV: 'test',
      OPERATOR: 'test-operator',
      RECEIPTS_DIR: ctx.config.receipts.dir,
      ...env,
    },
    store: { db: ctx.db, dialect: ctx.dialect },
    passwords: testPasswords,
    clock: ctx.clock,
    readStdin: async () => stdin,
  })
  return { code, stdout, stderr }
}
