import { useQuery } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { useLocale } from '../../i18n/use-locale'
import { AppLink } from '../../ui/nav'
import { catalogueQueries } from './queries'
import * as styles from './catalogue.css'

/**
 * Home's row of the catalogue's groups, each a chip that opens the group's page. The row has
 * its height before the groups arrive (they come with the first screen, or soon after), so
 * nothing below it moves; it scrolls sideways on its own when the chips do not fit.
 */
export function HomeGroups() {
  const { t } = useLingui()
  const { data, isError } = useQuery(catalogueQueries.groups(useLocale()))
  if (isError || data?.data.length === 0) return null
  return (
    <nav className={styles.groupRow} aria-label={t`Groups`}>
      {data ? (
        <ul className={styles.groupList}>
          {data.data.map((group) => (
            <li key={group.id} className={styles.groupItem}>
              <AppLink
                to="/groups/$id"
                params={{ id: String(group.id) }}
                className={styles.groupChip}
              >
                {group.image && (
                  <img
                    className={styles.groupImage}
                    src={group.image}
                    alt=""
                    width={28}
                    height={28}
                    // Lazy: asked for only where the row is shown (not in home's markup set
                    // aside for another page), and never before the slide.
                    loading="lazy"
                    decoding="async"
                  />
                )}
                {group.name}
              </AppLink>
            </li>
          ))}
        </ul>
      ) : null}
    </nav>
  )
}
