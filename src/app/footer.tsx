import { useRef } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { siteQueries } from '../features/site/queries'
import { useLocale } from '../i18n/use-locale'
import { useToken } from '../api/token'
import { FacebookIcon, InstagramIcon, TikTokIcon, WhatsAppIcon } from '../ui/social-icons'
import { socialLinks, whatsappHref } from './contact-links'
import * as styles from './shell.css'
import { useClearSpot } from './use-clear-spot'
import { AppLink } from '../ui/nav'
import { useNearScreen } from '../ui/near-screen'

export function Footer() {
  const { t } = useLingui()
  const token = useToken()
  const { data: contact } = useQuery(siteQueries.contact(useLocale()))
  const links = socialLinks(contact)
  const socials = [
    { href: links.facebook, label: t`Facebook`, Icon: FacebookIcon },
    { href: links.instagram, label: t`Instagram`, Icon: InstagramIcon },
    { href: links.whatsapp, label: t`WhatsApp`, Icon: WhatsAppIcon },
    { href: links.tiktok, label: t`TikTok`, Icon: TikTokIcon },
  ].filter((social) => social.href)
  // The background (a wide picture) is asked for when the footer nears the screen.
  const [near, ref] = useNearScreen(false)

  return (
    <footer ref={ref} className={near ? `${styles.footer} ${styles.footerPicture}` : styles.footer}>
      <section className={styles.footerBox} aria-labelledby="footer-follow">
        <h2 id="footer-follow" className={styles.footerHeading}>
          <Trans>Follow us</Trans>
        </h2>
        <div className={styles.socials}>
          {socials.map(({ href, label, Icon }) => (
            <a
              key={label}
              className={styles.socialLink}
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={label}
            >
              <Icon />
            </a>
          ))}
        </div>
      </section>
      <nav className={styles.footerBox} aria-labelledby="footer-links">
        <h2 id="footer-links" className={styles.footerHeading}>
          <Trans>Links</Trans>
        </h2>
        <ul className={styles.footerList}>
          <li>
            <AppLink className={styles.footerLink} to="/">
              <Trans>Home</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink className={styles.footerLink} to="/about-us">
              <Trans>About us</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink className={styles.footerLink} to="/products">
              <Trans>Products</Trans>
            </AppLink>
          </li>
          <li>
            <AppLink className={styles.footerLink} to="/contact-us">
              <Trans>Contact us</Trans>
            </AppLink>
          </li>
        </ul>
      </nav>
      {!token && (
        <nav className={styles.footerBox} aria-labelledby="footer-account">
          <h2 id="footer-account" className={styles.footerHeading}>
            <Trans>Account</Trans>
          </h2>
          <ul className={styles.footerList}>
            <li>
              <AppLink className={styles.footerLink} to="/sign-in">
                <Trans>Sign in</Trans>
              </AppLink>
            </li>
            <li>
              <AppLink className={styles.footerLink} to="/sign-up">
                <Trans>Sign up</Trans>
              </AppLink>
            </li>
          </ul>
        </nav>
      )}
    </footer>
  )
}

/**
 * The floating WhatsApp button. Where a control or text lies under its spot it tucks itself
 * against the screen's edge, over the page's margin, so it never covers them; over empty
 * space (the room the page leaves at its end, a gap between cards) it shows whole.
 */
export function WhatsAppButton() {
  const { t } = useLingui()
  const { data: contact } = useQuery(siteQueries.contact(useLocale()))
  const href = whatsappHref(contact?.whatsapp ?? contact?.first_phone_number)
  const probe = useRef<HTMLDivElement>(null)
  const own = useRef<HTMLAnchorElement>(null)
  const clear = useClearSpot(probe, own)
  if (!href) return null
  // A landmark of its own, as every piece of the page is in one; it floats wherever it is.
  return (
    <aside aria-label={t`WhatsApp`}>
      <div
        ref={probe}
        className={`${styles.whatsapp} ${styles.whatsappProbe}`}
        aria-hidden="true"
      />
      <a
        ref={own}
        className={clear ? styles.whatsapp : `${styles.whatsapp} ${styles.whatsappTucked}`}
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t`Chat with us on WhatsApp`}
      >
        <WhatsAppIcon width={30} height={30} />
      </a>
    </aside>
  )
}
