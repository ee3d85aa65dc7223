import type { Kysely } from 'kysely'
import { createV2Client, type V2Client } from '../adapters/smm-v2'
import { prepared } from '../db/prepared'
import type { Database } from '../db/schema'
import { type Logger } from '../log'
import { seal, serverKey, unseal } from './api-tokens'

/*
 * The upstream panels an operator added (URL and a sealed key), the packages mapped to one of
 * their services, the chain each package's orders go through, and a client of a panel.
 * Placing orders: services/upstream.ts; following them: services/upstream-status.ts.
 */

const SEAL_INFO = 'wallet-store upstream key v1'
const associated = (name: string) => `upstream:${name}`

// ---- panels and mappings --------------------------------------------------------------------

export interface PanelRow {
  id: number
  name: string
  url: string
  key_sealed: string
}

export async function addPanel(
  db: Kysely<Database>,
  secret: string | undefined,
  { name, url, key }: { name: string; url: string; key: string },
  now: Date,
): Promise<number> {
  const sealKey = await serverKey(db, secret, SEAL_INFO)
  const row = await db
    .insertInto('upstream_panels')
    .values({
      name,
      url,
      key_sealed: seal(sealKey, associated(name), key),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!row) throw new Error(`a panel named ${name} already exists`)
  return row.id
}

export function findPanel(db: Kysely<Database>, name: string): Promise<PanelRow | undefined> {
  return db
    .selectFrom('upstream_panels')
    .select(['id', 'name', 'url', 'key_sealed'])
    .where('name', '=', name)
    .executeTakeFirst()
}

export interface UpstreamSettings {
  tokenSecret: string | undefined
  timeoutMs: number
  fetch?: typeof fetch
}

/** A client of the panel, its key unsealed. */
export async function panelClient(
  db: Kysely<Database>,
  panel: PanelRow,
  settings: UpstreamSettings,
): Promise<V2Client> {
  const key = unseal(
    await serverKey(db, settings.tokenSecret, SEAL_INFO),
    associated(panel.name),
    panel.key_sealed,
  )
  if (key === null) throw new Error(`the key of panel ${panel.name} is sealed under another secret`)
  return createV2Client({ url: panel.url, key }, settings)
}

/** Maps a package to a panel's service (a new mapping replaces the old one). */
export async function mapPackage(
  db: Kysely<Database>,
  { packageId, panelId, service }: { packageId: number; panelId: number; service: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('upstream_services')
    .values({ package_id: packageId, panel_id: panelId, service, created_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column('package_id')
        .doUpdateSet({ panel_id: panelId, service, created_at: now.toISOString() }),
    )
    .execute()
}

export async function unmapPackage(db: Kysely<Database>, packageId: number): Promise<boolean> {
  const done = await db
    .deleteFrom('upstream_services')
    .where('package_id', '=', packageId)
    .executeTakeFirst()
  return Number(done.numDeletedRows) > 0
}

/** Asked after every order: built once (db/prepared.ts). */
const upstreamService = prepared((db, { id }: { id: number }) =>
  db.selectFrom('upstream_services').select('package_id').where('package_id', '=', id),
)

/** Whether a package's orders go to an upstream panel (checkout hands them to nobody else). */
export async function isUpstreamPackage(db: Kysely<Database>, packageId: number | null) {
  if (packageId === null) return false
  return (await upstreamService(db, { id: packageId })).rows.length > 0
}

/**
 * Each package that has stock or an upstream, and its chain of fulfilment: the stock (while it
 * has codes), then the upstream panel's service, then the operator by hand.
 */
export async function fulfilmentChains(db: Kysely<Database>, now: Date) {
  const today = now.toISOString().slice(0, 10)
  const [mapped, stocked] = await Promise.all([
    db
      .selectFrom('upstream_services')
      .innerJoin('upstream_panels', 'upstream_panels.id', 'upstream_services.panel_id')
      .select(['package_id', 'upstream_panels.name as panel', 'service'])
      .execute(),
    db
      .selectFrom('stock_codes')
      .select(['package_id', (eb) => eb.fn.countAll<number>().as('available')])
      .where('order_id', 'is', null)
      .where('withdrawn_at', 'is', null)
      .where((eb) => eb.or([eb('expires_on', 'is', null), eb('expires_on', '>=', today)]))
      .groupBy('package_id')
      .execute(),
  ])
  const ids = [
    ...new Set([...mapped.map((m) => m.package_id), ...stocked.map((s) => s.package_id)]),
  ]
  if (ids.length === 0) return []
  const names = await db
    .selectFrom('packages')
    .innerJoin('products', 'products.id', 'packages.product_id')
    .select(['packages.id', 'packages.name_en', 'products.name_en as product'])
    .where('packages.id', 'in', ids)
    .execute()
  return ids
    .sort((a, b) => a - b)
    .map((id) => {
      const name = names.find((n) => n.id === id)
      const upstream = mapped.find((m) => m.package_id === id)
      const available = Number(stocked.find((s) => s.package_id === id)?.available ?? 0)
      return {
        package_id: id,
        name: name ? `${name.product} / ${name.name_en}` : '(not in the catalogue)',
        chain: [
          ...(available > 0 ? [`stock (${available})`] : []),
          ...(upstream ? [`${upstream.panel} service ${upstream.service}`] : []),
          'by hand',
        ],
      }
    })
}

/** The wait before attempt n + 1 at an unreachable panel: 5 s, 10 s, 20 s... at most 10 min. */
export const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 600_000)

export interface UpstreamContext extends UpstreamSettings {
  lbpRate: number
  now: Date
  logger?: Logger
}

/** The panel columns of a row joined with its panel, and the panel they name. */
export const panelColumns = [
  'upstream_panels.id as panel_id',
  'upstream_panels.name as panel_name',
  'upstream_panels.url as panel_url',
  'upstream_panels.key_sealed as panel_key',
] as const

export const panelOf = (r: {
  panel_id: number
  panel_name: string
  panel_url: string
  panel_key: string
}) => ({
  id: r.panel_id,
  name: r.panel_name,
  url: r.panel_url,
  key_sealed: r.panel_key,
})
