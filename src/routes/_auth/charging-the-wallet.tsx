import { createFileRoute } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { ComingSoon } from '../../app/coming-soon'

export const Route = createFileRoute('/_auth/charging-the-wallet')({
  component: function Page() {
    const { t } = useLingui()
    return <ComingSoon title={t`Charging the wallet`} />
  },
})
