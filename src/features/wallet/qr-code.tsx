import { useEffect, useRef, useState } from 'react'
import { useLingui } from '@lingui/react/macro'
import { tokens } from '../../theme/theme.css'
import * as styles from './wallet.css'

/**
 * A QR code drawn in the browser (qr-code-styling, loaded only here: only the USDT dialog
 * shows one). `label` says what it holds, for screen readers.
 */
export function QrCode({ data, label }: { data: string; label: string }) {
  const { t } = useLingui()
  const box = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    const target = box.current
    import('qr-code-styling')
      .then(({ default: QRCodeStyling }) => {
        if (!live || !target) return
        target.replaceChildren()
        new QRCodeStyling({
          width: 220,
          height: 220,
          type: 'svg',
          data,
          margin: 8,
          qrOptions: { errorCorrectionLevel: 'M' },
          dotsOptions: { type: 'square', color: tokens.text },
          backgroundOptions: { color: tokens.surface },
        }).append(target)
      })
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [data])
  return (
    <div ref={box} className={styles.qr} role="img" aria-label={label}>
      {failed && <p>{t`The QR code could not be drawn; copy the address instead.`}</p>}
    </div>
  )
}
