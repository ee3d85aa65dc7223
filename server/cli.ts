/**
 * Operator commands against the server's database: `npm run -s operator -- <command>`.
 * Reads the same settings as the server (environment, then .env) and migrates first.
 */
import { loadDotEnv } from './config'
import { runCli } from './cli/run'

loadDotEnv()
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
})
