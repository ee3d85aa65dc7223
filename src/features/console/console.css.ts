import { style } from '@vanilla-extract/css'
import { site, tokens, wide } from '../../theme/theme.css'

/** The console's page: its bar, then the screen. */
export const page = style({ display: 'grid', gap: '1rem', minInlineSize: 0 })

export const bar = style({ display: 'grid', gap: '0.75rem' })

/** The menu's button and who is signed in: one row, the name cut short when long. */
export const barRow = style({
  display: 'flex',
  alignItems: 'center',
  gap: '0.75rem',
  justifyContent: 'space-between',
  minInlineSize: 0,
})

export const menuButton = style({ gap: '0.4rem', flexShrink: 0 })

export const menu = style({
  display: 'grid',
  gap: '0.75rem',
  selectors: { '&[hidden]': { display: 'none' } },
})

/** The screens' links: two columns on a phone, as many as fit on a wide screen. */
export const nav = style({
  display: 'grid',
  gap: '0.5rem',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 8.5rem), 1fr))',
})

export const navLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  minBlockSize: '44px',
  paddingInline: '0.9rem',
  borderRadius: tokens.radius,
  color: 'inherit',
  textDecoration: 'none',
  fontWeight: 600,
  border: `1px solid ${tokens.border}`,
  selectors: {
    '&[aria-current="page"]': { background: site.primary, color: site.onPrimary },
  },
})

/** Who is signed in: a long name ends in an ellipsis (the whole of it in its title); the role stays. */
export const who = style({
  display: 'flex',
  gap: '0.25em',
  margin: 0,
  minInlineSize: 0,
  whiteSpace: 'nowrap',
  color: tokens.muted,
})

export const whoName = style({
  minInlineSize: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
})

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem' })

/** The bar's sign-out buttons: smaller than a form's, still 44 px high. */
export const small = style({ paddingInline: '0.7rem', fontSize: '0.95rem' })

/** The sign-in card: one column, as wide as a phone. */
export const signIn = style({ maxInlineSize: '26rem', inlineSize: '100%', marginInline: 'auto' })

export const form = style({ display: 'grid', gap: '0.9rem' })

/** Today's counts: as many columns as fit, one or two on a phone. */
export const counts = style({
  display: 'grid',
  gap: '0.75rem',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 9.5rem), 1fr))',
  margin: 0,
  padding: 0,
  listStyle: 'none',
})

export const count = style({
  display: 'grid',
  gap: '0.25rem',
  padding: '0.9rem',
  minBlockSize: '5rem',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  background: tokens.surface,
  color: 'inherit',
  textDecoration: 'none',
  overflowWrap: 'anywhere',
})

export const countLink = style([count, { borderColor: site.primary }])

export const number = style({ fontSize: '1.8rem', fontWeight: 700, lineHeight: 1.1 })

export const totals = style({ margin: 0, paddingInlineStart: '1.2rem' })

/**
 * A receipt under review. On a phone: what it is and who sent it, the photo, the rest, and the
 * decision's buttons held at the bottom of the screen; on a wide screen the photo beside them.
 */
export const review = style({
  display: 'grid',
  gap: '1rem',
  alignItems: 'start',
  minInlineSize: 0,
  gridTemplateAreas: '"facts" "photo" "more" "decide"',
  '@media': {
    [wide]: {
      gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
      gridTemplateAreas: '"photo facts" "photo more" "photo decide"',
    },
  },
})

export const factsArea = style({ gridArea: 'facts', display: 'grid', gap: '0.75rem' })
export const photoArea = style({ gridArea: 'photo', minInlineSize: 0 })
export const moreArea = style({ gridArea: 'more', display: 'grid', gap: '0.75rem' })

/**
 * The receipt photo's room, the same while it loads as once it is shown: what follows it (the
 * decision's buttons) does not move under an operator's finger.
 */
const PHOTO_BLOCK = 'min(45vh, 20rem)'

export const photo = style({
  inlineSize: '100%',
  blockSize: PHOTO_BLOCK,
  objectFit: 'contain',
  borderRadius: tokens.radius,
  border: `1px solid ${tokens.border}`,
  background: tokens.surface,
})

export const photoWaiting = style({ blockSize: PHOTO_BLOCK, display: 'grid', placeItems: 'center' })

/** The message after a decision; takes no room while there is none. */
export const notice = style({ margin: 0, selectors: { '&:empty': { display: 'none' } } })

/** The narrowest phones (320 px): a fact's value under its term, with the whole line for it. */
const narrow = 'screen and (max-width: 359px)'

/**
 * Term and value side by side; on the narrowest phones the value goes under its term, where
 * a phone number or an e-mail's parts fit a line (beside the terms they had ten characters).
 */
export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  gap: '0.35rem 0.9rem',
  margin: 0,
  overflowWrap: 'anywhere',
  '@media': { [narrow]: { gridTemplateColumns: 'minmax(0, 1fr)', rowGap: '0.1rem' } },
})

export const term = style({ color: tokens.muted })
export const value = style({
  margin: 0,
  fontWeight: 600,
  '@media': { [narrow]: { marginBlockEnd: '0.45rem' } },
})

export const history = style({
  margin: 0,
  paddingInlineStart: '1.2rem',
  display: 'grid',
  gap: '0.3rem',
})

/**
 * The decision's buttons: kept at the bottom of the screen on a phone, where a thumb reaches
 * them, over the page's own background.
 */
export const decide = style({
  gridArea: 'decide',
  display: 'grid',
  gap: '0.5rem',
  gridTemplateColumns: '1fr 1fr',
  position: 'sticky',
  insetBlockEnd: 0,
  paddingBlock: '0.75rem',
  background: tokens.surface,
  borderBlockStart: `1px solid ${tokens.border}`,
})

export const wideButton = style({ inlineSize: '100%' })

export const reason = style({ minBlockSize: '5rem', resize: 'vertical' })

export const rest = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.4rem',
})

export const restButton = style({
  inlineSize: '100%',
  justifyContent: 'space-between',
  whiteSpace: 'normal',
})

/** The customers' search: the field, and its button beside it where there is room. */
export const searchForm = style({
  display: 'grid',
  gap: '0.6rem',
  alignItems: 'end',
  gridTemplateColumns: 'minmax(0, 1fr) auto',
})

export const back = style({ margin: 0 })

/** A customer's actions: one column on a phone, as many as fit on a wide screen. */
export const customerActions = style({
  display: 'grid',
  gap: '0.5rem',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 13rem), 1fr))',
})

/** An action's button: its words wrap on a small phone rather than push the page wide. */
export const actionButton = style({ inlineSize: '100%', whiteSpace: 'normal' })

export const choices = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.5rem 1.25rem',
  border: 0,
  margin: 0,
  padding: 0,
})

/** A radio choice: a 44 px target. */
export const choice = style({ display: 'inline-flex', alignItems: 'center', minBlockSize: '44px' })

export const dialogActions = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: '0.75rem',
  justifyContent: 'flex-end',
})

/** The audit log's filters: as many columns as fit, one on a small phone. */
export const auditFilters = style({
  display: 'grid',
  gap: '0.6rem',
  alignItems: 'end',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 11rem), 1fr))',
})

export const filterButton = style({ inlineSize: '100%' })

/** An audit line's before → after pairs. */
export const changes = style({
  margin: 0,
  padding: 0,
  listStyle: 'none',
  display: 'grid',
  gap: '0.2rem',
  overflowWrap: 'anywhere',
})

/** Today's push switch for this device: its button or its state, under the counts. */
export const notify = style({ display: 'grid', gap: '0.5rem', justifyItems: 'start' })
