import * as Tabs from '@radix-ui/react-tabs'
import { useLingui } from '@lingui/react/macro'
import { useDirection } from '../../i18n/use-locale'
import type { Purchasable } from './item'
import * as styles from './service-tabs.css'

export interface ServiceTabsProps {
  services: Purchasable['services']
  value: string | undefined
  onValue: (type: string) => void
}

/** A social product's services (followers, likes...), one tab each, with its note. */
export function ServiceTabs({ services, value, onValue }: ServiceTabsProps) {
  const { t } = useLingui()
  const dir = useDirection()
  const label = (type: string) =>
    type === 'LIKES'
      ? t`Likes`
      : type === 'COMMENTS'
        ? t`Comments`
        : type === 'VIEWS'
          ? t`Views`
          : t`Followers`
  return (
    <Tabs.Root value={value} onValueChange={onValue} dir={dir}>
      <Tabs.List className={styles.tabList} aria-label={t`Service`}>
        {services.map((s) => (
          <Tabs.Trigger key={s.type} value={s.type} className={styles.tab}>
            {label(s.type)}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {services.map((s) => (
        <Tabs.Content key={s.type} value={s.type}>
          {s.note && <p className={styles.note}>{s.note}</p>}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}
