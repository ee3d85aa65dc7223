import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId } from './helpers'

/**
 * The catalogue: groups, products, their extra images, packages and additional services.
 * Money is bigint micro-units (1 USD = 1,000,000); percentages are micro-units of a percent
 * (2.5 % = 2,500,000), so both convert with the same helpers. Names and notes are stored in
 * both languages (`_en`, `_ar`); `requirements` and `player_numbers` are JSON text.
 * A package's purchase fields are nullable: null means "as the product says".
 */
export function catalogueMigration(dialect: Dialect): Migration {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer'
  const flag = (col: string) => sql`${sql.ref(col)} in (0, 1)`
  return {
    async up(db: Kysely<unknown>) {
      await withId(db.schema.createTable('product_groups'), dialect)
        .addColumn('name_en', 'varchar(200)', (col) => col.notNull())
        .addColumn('name_ar', 'varchar(200)', (col) => col.notNull())
        .addColumn('image', 'text')
        .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
        .execute()

      await withId(db.schema.createTable('products'), dialect)
        .addColumn('number', 'integer', (col) => col.notNull().check(sql`number between 1 and 7`))
        .addColumn('group_id', idType, (col) =>
          col.references('product_groups.id').onDelete('set null'),
        )
        .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('name_en', 'varchar(200)', (col) => col.notNull())
        .addColumn('name_ar', 'varchar(200)', (col) => col.notNull())
        // Both names, lower case and with Arabic spelling variants folded: what search reads.
        .addColumn('search_text', 'text', (col) => col.notNull())
        .addColumn('note_en', 'text')
        .addColumn('note_ar', 'text')
        .addColumn('image', 'text')
        .addColumn('istoken', 'integer', (col) => col.notNull().defaultTo(0).check(flag('istoken')))
        .addColumn('minimum_qut', 'bigint', (col) => col.notNull().defaultTo(1))
        .addColumn('maximum_qut', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('minimum_qut_note_en', 'text')
        .addColumn('minimum_qut_note_ar', 'text')
        .addColumn('is_available', 'integer', (col) =>
          col.notNull().defaultTo(1).check(flag('is_available')),
        )
        .addColumn('force_unavailable', 'integer', (col) =>
          col.notNull().defaultTo(0).check(flag('force_unavailable')),
        )
        .addColumn('company_price', 'bigint', (col) => col.notNull().check(sql`company_price >= 0`))
        .addColumn('sec_company_price', 'bigint', (col) => col.check(sql`sec_company_price >= 0`))
        .addColumn('company_percentage', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('product_percentage', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('product_reference', 'text')
        .addColumn('requirements', 'text', (col) => col.notNull().defaultTo('[]'))
        .addColumn('require_player_number', 'integer', (col) =>
          col.notNull().defaultTo(0).check(flag('require_player_number')),
        )
        .addColumn('th_party_api_id', 'bigint')
        .addColumn('th_party_as7ab_api', 'text')
        .addColumn('player_numbers', 'text', (col) => col.notNull().defaultTo('[]'))
        .addColumn('is_tiktok', 'integer', (col) =>
          col.notNull().defaultTo(0).check(flag('is_tiktok')),
        )
        .addColumn('pkey', 'varchar(100)')
        .execute()
      await db.schema
        .createIndex('products_position')
        .on('products')
        .columns(['position', 'id'])
        .execute()
      await db.schema.createIndex('products_group_id').on('products').column('group_id').execute()

      await withId(db.schema.createTable('product_images'), dialect)
        .addColumn('product_id', idType, (col) =>
          col.notNull().references('products.id').onDelete('cascade'),
        )
        .addColumn('image', 'text')
        .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createIndex('product_images_product_id')
        .on('product_images')
        .column('product_id')
        .execute()

      await withId(db.schema.createTable('packages'), dialect)
        .addColumn('product_id', idType, (col) =>
          col.notNull().references('products.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('name_en', 'varchar(200)', (col) => col.notNull())
        .addColumn('name_ar', 'varchar(200)', (col) => col.notNull())
        .addColumn('image', 'text')
        .addColumn('type', 'varchar(50)', (col) => col.notNull().defaultTo('package'))
        .addColumn('merge_to', idType, (col) => col.references('products.id').onDelete('set null'))
        .addColumn('is_available', 'integer', (col) =>
          col.notNull().defaultTo(1).check(flag('is_available')),
        )
        .addColumn('company_price', 'bigint', (col) => col.notNull().check(sql`company_price >= 0`))
        .addColumn('company_percentage', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('product_percentage', 'bigint', (col) => col.notNull().defaultTo(0))
        .addColumn('package_id', 'bigint')
        .addColumn('note_en', 'text')
        .addColumn('note_ar', 'text')
        .addColumn('minimum_qut', 'bigint')
        .addColumn('maximum_qut', 'bigint')
        .addColumn('minimum_qut_note_en', 'text')
        .addColumn('minimum_qut_note_ar', 'text')
        .addColumn('requirements', 'text')
        .addColumn('require_player_number', 'integer', (col) =>
          col.check(flag('require_player_number')),
        )
        .addColumn('th_party_api_id', 'bigint')
        .addColumn('is_tiktok', 'integer', (col) => col.check(flag('is_tiktok')))
        .addColumn('pkey', 'varchar(100)')
        .execute()
      await db.schema
        .createIndex('packages_product_id')
        .on('packages')
        .columns(['product_id', 'position'])
        .execute()
      await db.schema.createIndex('packages_merge_to').on('packages').column('merge_to').execute()

      await withId(db.schema.createTable('product_additional_services'), dialect)
        .addColumn('product_id', idType, (col) =>
          col.notNull().references('products.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('type', 'varchar(50)', (col) => col.notNull())
        .addColumn('minimum_qut', 'bigint', (col) => col.notNull().defaultTo(1))
        .addColumn('minimum_qut_note_en', 'text')
        .addColumn('minimum_qut_note_ar', 'text')
        .addColumn('note_en', 'text')
        .addColumn('note_ar', 'text')
        .addColumn('company_price', 'bigint', (col) => col.notNull().check(sql`company_price >= 0`))
        .addColumn('product_percentage', 'bigint', (col) => col.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createIndex('product_additional_services_product_id')
        .on('product_additional_services')
        .column('product_id')
        .execute()
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'product_additional_services',
        'packages',
        'product_images',
        'products',
        'product_groups',
      ]) {
        await db.schema.dropTable(table).execute()
      }
    },
  }
}
