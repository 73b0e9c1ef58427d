// The monthly (UTC calendar month) budget on credit spend: a hard cap (calls past it are refused
// 402), a soft cap (a notice when reached) and an approval threshold (calls that would cross it are
// refused 402 until it is raised). Shown and typed in dollars; an empty field is no control.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql, useFragment, type FragmentType } from '../../gql';
import { formatMoney } from '../../format.ts';
import { ProblemNotice } from '../States.tsx';
import { dollarsField, formatMillicents, parseDollars } from './money.ts';

export const BudgetFragment = graphql(`
  fragment BudgetForm on BillingSnapshot {
    budget {
      period
      periodSpendMillicents
      hardCapCents
      softCapCents
      approvalThresholdCents
      softCapReached
    }
  }
`);

const SetBudget = graphql(`
  mutation BillingSetBudget($hardCapCents: Int, $softCapCents: Int, $approvalThresholdCents: Int, $clear: [String!]) {
    setBudget(hardCapCents: $hardCapCents, softCapCents: $softCapCents, approvalThresholdCents: $approvalThresholdCents, clear: $clear) {
      budget {
        period
        periodSpendMillicents
        hardCapCents
        softCapCents
        approvalThresholdCents
        softCapReached
      }
    }
  }
`);

const controls = [
  { name: 'hardCapCents', label: 'Hard cap (USD)', about: 'Calls that would take the month\'s spend past it are refused (402).' },
  { name: 'softCapCents', label: 'Soft cap (USD)', about: 'Reaching it sends a billing.soft_cap_reached event, once a month.' },
  { name: 'approvalThresholdCents', label: 'Approval threshold (USD)', about: 'Calls that would cross it are refused (402) until it is raised.' },
] as const;
type Control = (typeof controls)[number]['name'];

export function BudgetForm(props: { billing: FragmentType<typeof BudgetFragment>; canManage: boolean }) {
  const { budget } = useFragment(BudgetFragment, props.billing);
  const current = (): Record<Control, string> => ({
    hardCapCents: dollarsField(budget.hardCapCents),
    softCapCents: dollarsField(budget.softCapCents),
    approvalThresholdCents: dollarsField(budget.approvalThresholdCents),
  });
  const [values, setValues] = useState(current);
  const [errors, setErrors] = useState<Partial<Record<Control, string>>>({});
  const [saved, save] = useMutation(SetBudget);
  const [done, setDone] = useState(false);
  const baseId = useId();

  useEffect(() => setValues(current()), [budget.hardCapCents, budget.softCapCents, budget.approvalThresholdCents]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const found: Partial<Record<Control, string>> = {};
    const change: Partial<Record<Control, number>> = {};
    const clear: Control[] = [];
    for (const { name } of controls) {
      const text = values[name].trim();
      if (!text) {
        clear.push(name);
        continue;
      }
      const cents = parseDollars(text);
      if (cents === null) found[name] = 'Enter an amount in dollars, such as 50 or 49.99, or leave it empty for no control.';
      else change[name] = cents;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    const result = await save({ ...change, clear });
    if (!result.error) setDone(true);
  };

  const locked = !props.canManage;
  return (
    <section className="card" aria-labelledby="billing-budget-heading">
      <h2 id="billing-budget-heading">Budget</h2>
      <p>
        Spent in {budget.period}: <strong className="budget-spend">{formatMillicents(budget.periodSpendMillicents)}</strong>
        {budget.hardCapCents !== null ? <> of a {formatMoney(budget.hardCapCents)} hard cap</> : null}.
        {budget.softCapReached ? ' The soft cap is reached.' : ''}
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Monthly budget">
        {controls.map((c) => (
          <div className="field" key={c.name}>
            <label htmlFor={`${baseId}-${c.name}`}>{c.label}</label>
            <input
              id={`${baseId}-${c.name}`}
              inputMode="decimal"
              value={values[c.name]}
              placeholder="No limit"
              disabled={locked}
              autoComplete="off"
              onChange={(e) => setValues({ ...values, [c.name]: e.target.value })}
              aria-invalid={errors[c.name] ? true : undefined}
              aria-describedby={`${baseId}-${c.name}-about${errors[c.name] ? ` ${baseId}-${c.name}-error` : ''}`}
            />
            <p className="muted field-about" id={`${baseId}-${c.name}-about`}>
              {c.about}
            </p>
            {errors[c.name] ? (
              <p className="field-error" id={`${baseId}-${c.name}-error`}>
                {errors[c.name]}
              </p>
            ) : null}
          </div>
        ))}
        {saved.error ? <ProblemNotice error={saved.error} context="Saving the budget" /> : null}
        <div className="actions">
          <button type="submit" disabled={locked || saved.fetching} aria-describedby={locked ? 'billing-role-note' : undefined}>
            Save budget
          </button>
          {done ? (
            <span className="muted" role="status">
              Budget saved.
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
