import { createV2Client, V2Refused } from '../adapters/smm-v2'
import { resolveAttempt, upstreamAttempts } from '../services/upstream'
import {
  addPanel,
  findPanel,
  fulfilmentChains,
  mapPackage,
  panelClient,
  unmapPackage,
  type PanelRow,
} from '../services/upstream-panels'
import { findStockPackage } from '../services/stock'
import { CommandError, table, UsageError, type CliContext, type Command } from './command'

/*
 * Upstream panels (docs/api.md, Upstream panels): other panels' API v2 that packages are bought
 * from (services/upstream.ts).
 */

const settings = (ctx: CliContext) => ({
  tokenSecret: ctx.config.tokenSecret,
  timeoutMs: ctx.config.upstream.timeoutMs,
})

async function panelNamed(ctx: CliContext, name: string): Promise<PanelRow> {
  const panel = await findPanel(ctx.db, name)
  if (!panel) throw new CommandError(`No upstream panel named ${name} (upstream:list shows them).`)
  return panel
}

/** A panel's call, its failure said plainly for the terminal. */
async function ask<T>(panel: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (err) {
    const why = err instanceof V2Refused ? `refused: ${err.message}` : (err as Error).message
    throw new CommandError(`${panel}: ${why}`)
  }
}

const number = (text: string, what: string) => {
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new UsageError(`${what} must be a whole number`)
  return text
}

export const upstreamCommands: Record<string, Command> = {
  'upstream:add': {
    summary: 'Add an upstream panel (its API v2 address and key); its balance is checked first.',
    usage: '<name> <url> (--key KEY | --key-stdin)',
    positionals: ['name', 'url'],
    options: { key: { type: 'string' }, 'key-stdin': { type: 'boolean' } },
    async run(ctx, args) {
      const [name, url] = args.positionals as [string, string]
      if (!/^[\w.-]{1,64}$/.test(name))
        throw new UsageError('<name> is 1 to 64 letters, digits, dots, dashes or underscores')
      if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url))
        throw new UsageError('<url> must be the API address, starting with http:// or https://')
      const key = (
        args.values['key-stdin'] === true
          ? await ctx.readStdin()
          : typeof args.values.key === 'string'
            ? args.values.key
            : ''
      ).trim()
      if (!key) throw new UsageError('--key or --key-stdin is required')
      if (await findPanel(ctx.db, name)) throw new CommandError(`A panel named ${name} exists.`)
      const balance = await ask(name, () => createV2Client({ url, key }, settings(ctx)).balance())
      const id = await addPanel(ctx.db, ctx.config.tokenSecret, { name, url, key }, ctx.clock.now())
      return {
        json: { id, name, url, balance: balance.balance, currency: balance.currency },
        text:
          `Added ${name} (${url}); balance ${balance.balance} ${balance.currency ?? ''}`.trim() +
          '.',
      }
    },
  },

  'upstream:list': {
    summary: "Upstream panels with their balance, and each package's chain of fulfilment.",
    usage: '',
    async run(ctx) {
      const panels = await ctx.db
        .selectFrom('upstream_panels')
        .select(['id', 'name', 'url', 'key_sealed'])
        .orderBy('name')
        .execute()
      const listed = await Promise.all(
        panels.map(async (panel) => {
          try {
            const b = await (await panelClient(ctx.db, panel, settings(ctx))).balance()
            return {
              name: panel.name,
              url: panel.url,
              balance: `${b.balance} ${b.currency ?? ''}`.trim(),
            }
          } catch (err) {
            return { name: panel.name, url: panel.url, balance: `(${(err as Error).message})` }
          }
        }),
      )
      const chains = await fulfilmentChains(ctx.db, ctx.clock.now())
      return {
        json: { panels: listed, packages: chains },
        text: [
          table(listed, '(no upstream panels)'),
          '',
          table(
            chains.map((c) => ({
              package: c.package_id,
              name: c.name,
              fulfilment: c.chain.join(', then '),
            })),
            '(no package has stock or an upstream: every order is completed by hand)',
          ),
        ].join('\n'),
      }
    },
  },

  'upstream:services': {
    summary: "A panel's services with their rates (per 1000), as it lists them.",
    usage: '<panel>',
    positionals: ['panel'],
    async run(ctx, args) {
      const panel = await panelNamed(ctx, args.positionals[0]!)
      const services = await ask(panel.name, async () =>
        (await panelClient(ctx.db, panel, settings(ctx))).services(),
      )
      const rows = services.map((s) => ({
        service: s.service,
        name: s.name ?? '',
        category: s.category ?? '',
        rate: s.rate ?? '',
        min: s.min ?? '',
        max: s.max ?? '',
      }))
      return { json: rows, text: table(rows, '(the panel lists no services)') }
    },
  },

  'upstream:map': {
    summary: "Buy a package's orders from a panel's service (checked in its list).",
    usage: '<package> <panel> <service>',
    positionals: ['package', 'panel', 'service'],
    async run(ctx, args) {
      const [packageText, panelName, serviceText] = args.positionals as [string, string, string]
      const packageId = Number(number(packageText, '<package>'))
      const service = number(serviceText, '<service>')
      const pkg = await findStockPackage(ctx.db, packageId)
      if (!pkg) throw new CommandError(`No package #${packageId}.`)
      const panel = await panelNamed(ctx, panelName)
      const theirs = await ask(panel.name, async () =>
        (await panelClient(ctx.db, panel, settings(ctx))).services(),
      )
      const found = theirs.find((s) => s.service === service)
      if (!found) throw new CommandError(`${panel.name} lists no service ${service}.`)
      await mapPackage(ctx.db, { packageId, panelId: panel.id, service }, ctx.clock.now())
      const name = `${pkg.product_name_en} / ${pkg.name_en}`
      return {
        json: {
          package_id: packageId,
          panel: panel.name,
          service,
          their_name: found.name,
          rate: found.rate,
        },
        text: `#${packageId} ${name}: orders paid from now on go to ${panel.name} service ${service} (${found.name ?? ''}, rate ${found.rate ?? '?'}).`,
      }
    },
  },

  'upstream:unmap': {
    summary: "Stop buying a package's orders upstream (they wait for the operator again).",
    usage: '<package>',
    positionals: ['package'],
    async run(ctx, args) {
      const packageId = Number(number(args.positionals[0]!, '<package>'))
      if (!(await unmapPackage(ctx.db, packageId)))
        throw new CommandError(`Package #${packageId} is not mapped to an upstream.`)
      return {
        json: { package_id: packageId },
        text: `#${packageId} is no longer bought upstream.`,
      }
    },
  },

  'upstream:orders': {
    summary: 'Orders placed upstream, newest first; --attention: refused or of unknown outcome.',
    usage: '[--attention]',
    options: { attention: { type: 'boolean' } },
    async run(ctx, args) {
      const rows = await upstreamAttempts(ctx.db, { attention: args.values.attention === true })
      return {
        json: rows,
        text: table(
          rows.map((r) => ({
            order: r.order_id,
            status: r.order_status,
            panel: r.panel,
            service: r.service,
            state: r.state,
            theirs: r.upstream_id ?? '',
            their_status: r.upstream_status ?? '',
            reason: r.reason ?? '',
          })),
          '(no upstream orders)',
        ),
      }
    },
  },

  'upstream:resolve': {
    summary:
      'Settle an upstream order left to you: --placed ID (the panel has it: its status is followed) or --send (it has not: send it again).',
    usage: '<order> (--placed ID | --send)',
    positionals: ['order'],
    options: { placed: { type: 'string' }, send: { type: 'boolean' } },
    async run(ctx, args) {
      const orderId = Number(number(args.positionals[0]!, '<order>'))
      const placed = args.values.placed
      if ((typeof placed === 'string') === (args.values.send === true))
        throw new UsageError('give either --placed ID or --send')
      const answer =
        typeof placed === 'string'
          ? { placed: number(placed, '--placed') }
          : ({ send: true } as const)
      if (!(await resolveAttempt(ctx.db, orderId, answer, ctx.clock.now())))
        throw new CommandError(
          `Order #${orderId} has no upstream order waiting for you (upstream:orders --attention), or is no longer open.`,
        )
      return {
        json: { order_id: orderId, ...answer },
        text:
          'placed' in answer
            ? `Order #${orderId}: followed as ${answer.placed} at its panel.`
            : `Order #${orderId}: sent again on the next round.`,
      }
    },
  },
}
