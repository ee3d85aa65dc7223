import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { Dialect } from '../index'
import { withId, withSingletonId } from './helpers'

/** Site content: look, slider, about, contact, and the contact form's messages. */
export function siteMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('meta')
        .addColumn('key', 'varchar(100)', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute()

      await withSingletonId(db.schema.createTable('website_info'))
        .addColumn('primary_color', 'varchar(32)', (col) => col.notNull())
        .addColumn('secondary_color', 'varchar(32)', (col) => col.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('logo_width', 'integer')
        .addColumn('logo_mobile_width', 'integer')
        .addColumn('icon_url', 'text')
        .addColumn('website_name', 'varchar(200)', (col) => col.notNull())
        .addColumn('body_bg_image', 'text')
        .addColumn('footer_bg_image', 'text')
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      for (const name of ['slider_images', 'about_images']) {
        await withId(db.schema.createTable(name), dialect)
          .addColumn('image', 'text', (col) => col.notNull())
          .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
          .execute()
      }

      await withSingletonId(db.schema.createTable('about_us'))
        .addColumn('text_en', 'text', (col) => col.notNull())
        .addColumn('text_ar', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withSingletonId(db.schema.createTable('contact_info'))
        .addColumn('email', 'varchar(320)')
        .addColumn('first_phone_number', 'varchar(40)')
        .addColumn('second_phone_number', 'varchar(40)')
        .addColumn('facebook', 'text')
        .addColumn('instagram', 'text')
        .addColumn('whatsapp', 'varchar(40)')
        .addColumn('tiktok', 'text')
        .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
        .execute()

      await withId(db.schema.createTable('messages'), dialect)
        .addColumn('name', 'varchar(200)', (col) => col.notNull())
        .addColumn('phone_number', 'varchar(64)', (col) => col.notNull())
        .addColumn('message', 'text', (col) => col.notNull())
        .addColumn('locale', 'varchar(8)', (col) => col.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
        .execute()
      // The operator reads the newest messages first.
      await db.schema
        .createIndex('messages_created_at')
        .on('messages')
        .column('created_at')
        .execute()
    },

    async down(db: Kysely<unknown>) {
      for (const table of [
        'messages',
        'contact_info',
        'about_us',
        'about_images',
        'slider_images',
        'website_info',
        'meta',
      ]) {
        await db.schema.dropTable(table).execute()
      }
    },
  }
}
