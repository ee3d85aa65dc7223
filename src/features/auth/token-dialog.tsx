import { useEffect, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { API_BASE } from '../../api/client'
import { ApiError } from '../../api/errors'
import { profileQuery } from '../../api/profile'
import { checkWhitelist } from '../../domain/ip-whitelist'
import { button } from '../../ui/button.css'
import { CopyButton } from '../../ui/copy-button'
import { Dialog, DialogClose } from '../../ui/dialog'
import { Field } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { RefreshIcon } from '../../ui/icons'
import { newApiToken, whitelistMessage } from './api-token'
import { authApi } from './queries'
import * as styles from './token-dialog.css'

/** How long the success is shown before the dialog closes. */
const CLOSE_AFTER_MS = 1500
/** The regenerate button's turn. */
const SPIN_MS = 1000

/**
 * The API token dialog (loaded only when opened: the whitelist rule brings ipaddr.js along).
 * The token is made here, in the browser; nothing is sent until Save, and a whitelist with a
 * bad line is not sent at all.
 */
export function TokenDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const { data: profile } = useQuery(profileQuery())
  // A customer without a token starts with a new one; it exists only once saved.
  const [token, setToken] = useState(() => profile?.token ?? newApiToken())
  const [whitelist, setWhitelist] = useState(profile?.ip_whitelist ?? '')
  const [problem, setProblem] = useState<string | null>(null)
  const [turns, setTurns] = useState(0)
  const [spinning, setSpinning] = useState(false)

  const save = useMutation({
    mutationFn: () => authApi.saveToken({ token, ip_whitelist: whitelist }),
    onSuccess: (reply) => {
      setWhitelist(reply.data.ip_whitelist)
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey })
    },
  })

  useEffect(() => {
    if (!save.isSuccess) return
    const timer = setTimeout(onClose, CLOSE_AFTER_MS)
    return () => clearTimeout(timer)
  }, [save.isSuccess, onClose])

  useEffect(() => {
    if (!spinning) return
    const timer = setTimeout(() => setSpinning(false), SPIN_MS)
    return () => clearTimeout(timer)
  }, [spinning, turns])

  const regenerate = () => {
    setToken(newApiToken())
    setTurns((n) => n + 1)
    setSpinning(true)
    save.reset()
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.reset()
    const checked = checkWhitelist(whitelist)
    if (!checked.ok) return setProblem(whitelistMessage(checked.problem))
    setProblem(null)
    save.mutate()
  }

  const failure =
    save.error instanceof ApiError && save.error.status === 422
      ? `${t`Error saving token`}: ${save.error.message}`
      : save.error
        ? t`Error saving token`
        : null
  const endpoint = new URL(`${API_BASE}v2`, window.location.origin).toString()
  const off = checkWhitelist(whitelist).ok && whitelist.trim() === ''

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={<Trans>API token</Trans>}
      description={
        <Trans>
          Connect your own panel or server to your wallet: it can list the services, place orders
          and read their status and your balance, only from the addresses you allow.
        </Trans>
      }
      actions={
        <>
          <DialogClose className={button.secondary}>
            <Trans>Close</Trans>
          </DialogClose>
          <button
            type="submit"
            form="api-token-form"
            className={button.primary}
            disabled={save.isPending}
          >
            <Trans>Save</Trans>
          </button>
        </>
      }
    >
      <form id="api-token-form" className={styles.form} onSubmit={submit} noValidate>
        <Field id="api-token" label={<Trans>Your API token</Trans>}>
          <textarea
            id="api-token"
            className={`${fieldStyles.input} ${styles.token}`}
            value={token}
            readOnly
            rows={2}
            dir="ltr"
            spellCheck={false}
            aria-describedby="api-token-hint"
          />
          <p id="api-token-hint" className={styles.hint}>
            <Trans>
              Keep it secret: it spends your balance. A new token replaces the old one once saved.
            </Trans>
          </p>
          <div className={styles.buttons}>
            <CopyButton text={token} label={t`Copy the API token`} feedbackMs={1500} />
            <button type="button" className={button.secondary} onClick={regenerate}>
              <RefreshIcon key={turns} className={spinning ? styles.spinning : undefined} />
              <Trans>Regenerate</Trans>
            </button>
          </div>
        </Field>
        <Field id="ip-whitelist" label={<Trans>IP whitelist</Trans>}>
          <textarea
            id="ip-whitelist"
            className={`${fieldStyles.input} ${styles.whitelist}`}
            value={whitelist}
            onChange={(event) => {
              setWhitelist(event.target.value)
              setProblem(null)
              save.reset()
            }}
            rows={4}
            dir="ltr"
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={'203.0.113.7\n2001:db8::/48'}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`ip-whitelist-hint${problem ? ' ip-whitelist-problem' : ''}`}
          />
          <p id="ip-whitelist-hint" className={styles.hint}>
            <Trans>
              One IPv4 or IPv6 address or CIDR range per line, such as{' '}
              <bdi dir="ltr">203.0.113.7</bdi> or <bdi dir="ltr">198.51.100.0/24</bdi>. With no
              address the token is off.
            </Trans>
          </p>
          {problem && (
            <p id="ip-whitelist-problem" className={fieldStyles.error} role="alert">
              {problem}
            </p>
          )}
          {off && !problem && (
            <p className={styles.off}>
              <Trans>The token is off until you add an address.</Trans>
            </p>
          )}
        </Field>
        <p className={styles.endpoint}>
          <Trans>
            <bdi dir="ltr">SMM panel API v2</bdi> address:
          </Trans>{' '}
          <bdi dir="ltr">
            <code>{endpoint}</code>
          </bdi>
        </p>
        {save.isSuccess && (
          <p role="status" className={fieldStyles.success}>
            <Trans>Token saved successfully!</Trans>
          </p>
        )}
        <FormError message={failure} />
      </form>
    </Dialog>
  )
}
