import { runCli } from '../cli/run'
import { testPasswords, type TestContext } from './context'

/** Runs an operator command in-process on the test database and collects what it printed. */
export async function runOperator(ctx: TestContext, ...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { NODE_ENV: 'test' },
    store: { db: ctx.db, dialect: ctx.dialect },
    passwords: testPasswords,
    clock: ctx.clock,
  })
  return { code, stdout, stderr }
}
