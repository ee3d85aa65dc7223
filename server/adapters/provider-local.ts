import type { PlayerApi, Provider } from './provider'

/** The player searches the demo catalogue uses (PUBG Mobile UC: th_party_api_id 1). */
const DEMO_APIS: PlayerApi[] = [
  { kind: 'id', id: 1 },
  { kind: 'name', name: 'pubg-mobile' },
]

/** A plausible game account number: 5 to 12 digits, not starting with 0. */
const PLAYER_NUMBER = /^[1-9]\d{4,11}$/

const knows = (api: PlayerApi) =>
  DEMO_APIS.some((known) =>
    known.kind === 'id' && api.kind === 'id'
      ? known.id === api.id
      : known.kind === 'name' && api.kind === 'name' && known.name === api.name,
  )

/**
 * The provider for development, tests and demos: deterministic and offline. It finds a
 * "Player <number>" for any plausible number on the demo searches and nobody else; it takes
 * every order and never finishes one, so orders wait for the operator (orders:complete,
 * orders:cancel).
 */
export function createLocalProvider(): Provider {
  return {
    kind: 'local',
    async lookupPlayer(api, number) {
      return knows(api) && PLAYER_NUMBER.test(number)
        ? { found: true, name: `Player ${number}` }
        : { found: false }
    },
    async placeOrder(order) {
      return { ref: `local-${order.id}`, status: 'WAITING' }
    },
    async orderStatus(refs) {
      return refs.map((ref) => ({ ref, status: 'WAITING' as const }))
    },
  }
}
