import type { Kysely } from 'kysely'
import type { Database } from '../schema'
import { Migrator, type Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { siteMigration } from './0001_site'
import { accountsMigration } from './0002_accounts'
import { catalogueMigration } from './0003_catalogue'
import { ordersMigration } from './0004_orders'
import { securityMigration } from './0005_security'
import { accountLoginMigration } from './0006_account_login'
import { walletMigration } from './0007_wallet'
import { apiTokensMigration } from './0008_api_tokens'
import { usdtMigration } from './0009_usdt'
import { pushMigration } from './0010_push'
import { contentVersionMigration } from './0011_content_version'
import { orderFunctionsMigration } from './0012_order_functions'
import { notificationMessagesMigration } from './0014_notification_messages'
import { usdtConstraintsMigration } from './0015_usdt_constraints'
import { resetLinksMigration } from './0016_reset_links'
import { requestIdsMigration } from './0018_request_ids'
import { codeStockMigration } from './0019_code_stock'
import { operatorsMigration } from './0020_operators'
import { upstreamMigration } from './0021_upstream'
import { auditAddressMigration } from './0022_audit_address'
import { paymentTextsMigration } from './0023_payment_texts'
import { operatorPushMigration } from './0024_operator_push'
import { promoDisabledMigration } from './0025_promo_disabled'
import { paymentMethodsMigration } from './0026_payment_methods'
import { walletLineNamesMigration } from './0027_wallet_line_names'

/**
 * Every migration, in order. Names sort lexically, so keep the four-digit prefix. A migration
 * that has run is never edited: change the schema with a new one.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_site': siteMigration(dialect),
    '0002_accounts': accountsMigration(dialect),
    '0003_catalogue': catalogueMigration(dialect),
    '0004_orders': ordersMigration(dialect),
    '0005_security': securityMigration(dialect),
    '0006_account_login': accountLoginMigration,
    '0007_wallet': walletMigration(dialect),
    '0008_api_tokens': apiTokensMigration,
    '0009_usdt': usdtMigration(dialect),
    '0010_push': pushMigration(dialect),
    '0011_content_version': contentVersionMigration(dialect),
    '0012_order_functions': orderFunctionsMigration(dialect),
    '0014_notification_messages': notificationMessagesMigration(dialect),
    '0015_usdt_constraints': usdtConstraintsMigration(dialect),
    '0016_reset_links': resetLinksMigration(dialect),
    '0018_request_ids': requestIdsMigration,
    '0019_code_stock': codeStockMigration(dialect),
    '0020_operators': operatorsMigration(dialect),
    '0021_upstream': upstreamMigration(dialect),
    '0022_audit_address': auditAddressMigration,
    '0023_payment_texts': paymentTextsMigration,
    '0024_operator_push': operatorPushMigration(dialect),
    '0025_promo_disabled': promoDisabledMigration,
    '0026_payment_methods': paymentMethodsMigration(dialect),
    '0027_wallet_line_names': walletLineNamesMigration(dialect),
  }
}

/** Brings the schema up to date. Kysely locks, so several instances may start at once. */
export async function migrateToLatest(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`migration ${failed ?? '(unknown)'} failed`, { cause: error })
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}
