import { createFileRoute } from '@tanstack/react-router'
import { useLingui } from '@lingui/react/macro'
import { ComingSoon } from '../../../app/coming-soon'

export const Route = createFileRoute('/_auth/wallet/$id')({
  component: function Page() {
    const { t } = useLingui()
    return <ComingSoon title={t`Payment`} />
  },
})
