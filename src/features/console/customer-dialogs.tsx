import { useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { ApiError } from '../../api/errors'
import type { CustomerDetail } from '../../contract/console-customers'
import { REJECT_REASON_MAX_LENGTH } from '../../contract/constants'
import { button } from '../../ui/button.css'
import { Dialog, DialogClose } from '../../ui/dialog'
import { Field, TextField } from '../../ui/field'
import * as fieldStyles from '../../ui/field.css'
import { FormError } from '../../ui/form-error'
import { Price } from '../../ui/price'
import { customerApi, customerQueries } from './customers-queries'
import * as styles from './console.css'

/*
 * A customer's actions in the console (docs/api.md, Console), each asked again in a dialog:
 * a balance correction with its reason, disable, enable, sign out everywhere, account type.
 */

export type CustomerAction = 'correct' | 'disable' | 'enable' | 'sessions' | 'type'

interface DialogProps {
  customer: CustomerDetail
  onClose: () => void
  onDone: (message: string) => void
}

/** The dialog of one action, open. */
export function CustomerDialog({ action, ...props }: DialogProps & { action: CustomerAction }) {
  return action === 'correct' ? (
    <CorrectionDialog {...props} />
  ) : (
    <ActionDialog {...props} action={action} />
  )
}

/** After an action: the account and its ledger read again, the message shown. */
function useDone(onDone: (message: string) => void, onClose: () => void) {
  const queryClient = useQueryClient()
  return (message: string) => {
    onDone(message)
    onClose()
    void queryClient.invalidateQueries({ queryKey: customerQueries.all })
    void queryClient.invalidateQueries({ queryKey: customerQueries.auditKey })
  }
}

/** Credit or debit with a reason: the amount in the wallet's currency, never below zero. */
function CorrectionDialog({ customer, onClose, onDone }: DialogProps) {
  const { t } = useLingui()
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit')
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null)
  const done = useDone(onDone, onClose)
  const correct = useMutation({
    mutationFn: () =>
      customerApi.correct(customer.id, { direction, amount: amount.trim(), reason: reason.trim() }),
    onSuccess: (reply) => {
      setAmount('')
      setReason('')
      done(reply.message)
    },
    // What was typed stays, with what is wrong.
    onError: (error) => {
      const fields = error instanceof ApiError ? Object.keys(error.fieldErrors) : []
      setProblem({ field: fields[0] ?? 'form', message: error.message })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const missing = !/^\d+(\.\d+)?$/.test(amount.trim()) || Number(amount) <= 0
    if (missing || !reason.trim()) {
      setProblem({
        field: missing ? 'amount' : 'reason',
        message: t`Enter an amount above 0 and the reason the customer will read.`,
      })
      return
    }
    setProblem(null)
    correct.mutate()
  }
  return (
    <Dialog
      open
      onOpenChange={(next) => !correct.isPending && !next && onClose()}
      title={<Trans>Correct the balance</Trans>}
      description={
        <Trans>
          The balance is <Price amount={customer.balance} currency={customer.currency} />. The
          customer sees the reason in their wallet and is notified.
        </Trans>
      }
    >
      <form id="correction" className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.choices}>
          <legend className={fieldStyles.label}>
            <Trans>Credit or debit</Trans>
          </legend>
          {(['credit', 'debit'] as const).map((d) => (
            <label key={d} className={styles.choice}>
              <input
                type="radio"
                name="direction"
                value={d}
                checked={direction === d}
                onChange={() => setDirection(d)}
              />{' '}
              {d === 'credit' ? <Trans>Add (credit)</Trans> : <Trans>Take (debit)</Trans>}
            </label>
          ))}
        </fieldset>
        <TextField
          id="correction-amount"
          label={<Trans>Amount ({customer.currency})</Trans>}
          value={amount}
          onValue={setAmount}
          invalid={problem?.field === 'amount'}
          inputMode="decimal"
          autoComplete="off"
          dir="ltr"
        />
        <Field id="correction-reason" label={<Trans>Reason the customer will read</Trans>}>
          <textarea
            id="correction-reason"
            className={`${fieldStyles.input} ${styles.reason}`}
            value={reason}
            maxLength={REJECT_REASON_MAX_LENGTH}
            aria-invalid={problem?.field === 'reason'}
            onChange={(event) => setReason(event.target.value)}
          />
        </Field>
        <FormError message={problem?.message} />
        <div className={styles.dialogActions}>
          <DialogClose className={button.secondary} disabled={correct.isPending}>
            <Trans>Cancel</Trans>
          </DialogClose>
          <button type="submit" className={button.primary} disabled={correct.isPending}>
            {correct.isPending ? (
              <Trans>Please wait…</Trans>
            ) : direction === 'credit' ? (
              <Trans>Credit the wallet</Trans>
            ) : (
              <Trans>Debit the wallet</Trans>
            )}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/** Disable (with an optional reason), enable, sign out everywhere, or change the type. */
function ActionDialog({
  customer,
  action,
  onClose,
  onDone,
}: DialogProps & { action: Exclude<CustomerAction, 'correct'> }) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const done = useDone(onDone, onClose)
  const { id, username } = customer
  const run = useMutation({
    mutationFn: (what: Exclude<CustomerAction, 'correct'>) =>
      what === 'disable'
        ? customerApi.disable(id, reason.trim())
        : what === 'enable'
          ? customerApi.enable(id)
          : what === 'sessions'
            ? customerApi.revokeSessions(id)
            : customerApi.setType(id, customer.type === 'COMPANY' ? 'CUSTOMER' : 'COMPANY'),
    onSuccess: (reply) => {
      setReason('')
      setProblem(null)
      done(reply.message)
    },
    onError: (error) => setProblem(error.message),
  })
  const name = <bdi>{username}</bdi>
  const texts = {
    disable: {
      title: <Trans>Disable {name}?</Trans>,
      text: <Trans>They cannot sign in, and every device is signed out. Their data stays.</Trans>,
      yes: <Trans>Disable</Trans>,
    },
    enable: {
      title: <Trans>Enable {name}?</Trans>,
      text: <Trans>They can sign in again with their password.</Trans>,
      yes: <Trans>Enable</Trans>,
    },
    sessions: {
      title: <Trans>Sign {name} out everywhere?</Trans>,
      text: (
        <Trans>
          Every device of theirs is signed out ({customer.sessions} now). They can sign in again.
        </Trans>
      ),
      yes: <Trans>Sign out</Trans>,
    },
    type: {
      title:
        customer.type === 'COMPANY' ? (
          <Trans>Make {name} a customer account?</Trans>
        ) : (
          <Trans>Make {name} a company account?</Trans>
        ),
      text: <Trans>The prices they pay change with the account type.</Trans>,
      yes: <Trans>Change the type</Trans>,
    },
  }
  const shown = texts[action]
  return (
    <Dialog
      open
      onOpenChange={(next) => !run.isPending && !next && onClose()}
      title={shown.title}
      description={shown.text}
      actions={
        <>
          <DialogClose className={button.secondary} disabled={run.isPending}>
            <Trans>Cancel</Trans>
          </DialogClose>
          <button
            type="button"
            className={button.primary}
            disabled={run.isPending}
            onClick={() => run.mutate(action)}
          >
            {run.isPending ? <Trans>Please wait…</Trans> : shown.yes}
          </button>
        </>
      }
    >
      {action === 'disable' && (
        <Field id="disable-reason" label={<Trans>Reason (for the audit log)</Trans>}>
          <textarea
            id="disable-reason"
            className={`${fieldStyles.input} ${styles.reason}`}
            value={reason}
            maxLength={REJECT_REASON_MAX_LENGTH}
            onChange={(event) => setReason(event.target.value)}
          />
        </Field>
      )}
      <FormError message={problem} />
    </Dialog>
  )
}
