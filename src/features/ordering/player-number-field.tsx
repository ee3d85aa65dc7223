import { Trans, useLingui } from '@lingui/react/macro'
import { ORDER_TEXT_MAX } from '../../contract/orders'
import { button } from '../../ui/button.css'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import type { PlayerState } from './use-purchase-form'
import * as styles from './ordering.css'

/** The player number, with a search that fills in the player's name where the item has one. */
export function PlayerNumberField({
  value,
  onChange,
  searchable,
  player,
  searching,
  onSearch,
}: {
  value: string
  onChange: (value: string) => void
  searchable: boolean
  player: PlayerState
  searching: boolean
  onSearch: (number: string) => void
}) {
  const { t } = useLingui()
  return (
    <Field id="order-player_number" label={<Trans>Player number</Trans>}>
      <div className={styles.row}>
        <input
          id="order-player_number"
          className={`${fieldStyles.input} ${styles.grow}`}
          inputMode="numeric"
          dir="ltr"
          placeholder={t`Enter the player number`}
          value={value}
          maxLength={ORDER_TEXT_MAX}
          onChange={(event) => onChange(event.target.value)}
        />
        {searchable && (
          <button
            type="button"
            className={button.secondary}
            disabled={!value.trim() || searching}
            onClick={() => onSearch(value.trim())}
          >
            <Trans>Search player</Trans>
          </button>
        )}
      </div>
      {searchable && (
        <p className={styles.playerName} role="status" aria-label={t`Player name`}>
          {searching ? (
            <Trans>Searching…</Trans>
          ) : player.name ? (
            <span className={styles.playerOk}>{player.name}</span>
          ) : player.error ? (
            <span className={fieldStyles.error}>{player.error}</span>
          ) : null}
        </p>
      )}
    </Field>
  )
}
