// Choosing event types from the service's catalog, for a webhook endpoint or a stream: every
// event of the organization (`*`), or types one by one, grouped by family (`billing`,
// `org.audit`, …) with a "Select all" per family, and a search over names and descriptions.
// Public data events (filing.added, …) are never covered by `*`: they are named or not read.
import { useEffect, useId, useRef, useState } from 'react';
import { graphql, useFragment, type FragmentType } from '../../gql';

export const EventTypePickerFragment = graphql(`
  fragment EventTypePickerItem on EventType {
    type
    description
    public
  }
`);

export const everyEvent = '*';

/** `org.audit.member.invited` → `org.audit`; `billing.grant_reset` → `billing`. */
export function familyOf(type: string): string {
  return type.startsWith('org.audit.') ? 'org.audit' : type.split('.')[0]!;
}

interface Item {
  type: string;
  description: string;
  public: boolean;
}

function FamilyGroup({
  family,
  items,
  selected,
  coveredByAll,
  disabled,
  onChange,
}: {
  family: string;
  items: Item[];
  selected: Set<string>;
  coveredByAll: boolean;
  disabled: boolean;
  onChange: (types: string[], on: boolean) => void;
}) {
  const id = useId();
  const allBox = useRef<HTMLInputElement>(null);
  const covered = (item: Item) => coveredByAll && !item.public;
  const choosable = items.filter((item) => !covered(item));
  const chosen = choosable.filter((item) => selected.has(item.type)).length;
  const all = choosable.length > 0 && chosen === choosable.length;
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = chosen > 0 && !all;
  }, [chosen, all]);
  return (
    <fieldset className="event-family">
      <legend>
        <code>{family}</code> <span className="muted">({items.length})</span>
      </legend>
      {choosable.length > 1 ? (
        <div className="check">
          <input
            ref={allBox}
            type="checkbox"
            id={`${id}-all`}
            checked={all}
            disabled={disabled}
            onChange={(e) => onChange(
              choosable.map((item) => item.type),
              e.target.checked,
            )}
          />
          <label htmlFor={`${id}-all`}>Select all {family}</label>
        </div>
      ) : null}
      {items.map((item) => (
        <div className="check event-type" key={item.type}>
          <input
            type="checkbox"
            id={`${id}-${item.type}`}
            checked={covered(item) || selected.has(item.type)}
            disabled={disabled || covered(item)}
            onChange={(e) => onChange([item.type], e.target.checked)}
            aria-describedby={`${id}-${item.type}-about`}
          />
          <div>
            <label htmlFor={`${id}-${item.type}`}>
              <code>{item.type}</code>
              {item.public ? <span className="int-badge">public data</span> : null}
            </label>
            <p className="muted choice-about" id={`${id}-${item.type}-about`}>
              {item.description}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  );
}

export function EventTypePicker(props: {
  eventTypes: readonly FragmentType<typeof EventTypePickerFragment>[];
  selected: string[];
  onChange: (selected: string[]) => void;
  disabled?: boolean;
  /** the field's error, said beside it */
  error?: string;
}) {
  const items = useFragment(EventTypePickerFragment, props.eventTypes) as readonly Item[];
  const [search, setSearch] = useState('');
  const searchId = useId();
  const errorId = useId();
  const selected = new Set(props.selected);
  const everything = selected.has(everyEvent);
  const disabled = Boolean(props.disabled);

  const needle = search.trim().toLowerCase();
  const shown = needle ? items.filter((item) => item.type.toLowerCase().includes(needle) || item.description.toLowerCase().includes(needle)) : items;
  const families = new Map<string, Item[]>();
  for (const item of shown) families.set(familyOf(item.type), [...(families.get(familyOf(item.type)) ?? []), item]);

  const change = (types: string[], on: boolean) => {
    const next = new Set(selected);
    for (const type of types) {
      if (on) next.add(type);
      else next.delete(type);
    }
    // `*` covers the organization's own events: naming them as well would say nothing more
    if (next.has(everyEvent)) for (const item of items) if (!item.public) next.delete(item.type);
    props.onChange([...next]);
  };

  return (
    <fieldset className="event-picker" aria-describedby={props.error ? errorId : undefined}>
      <legend>Event types</legend>
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
      <div className="check">
        <input type="checkbox" id={`${searchId}-every`} checked={everything} disabled={disabled} onChange={(e) => change([everyEvent], e.target.checked)} />
        <label htmlFor={`${searchId}-every`}>
          Every event of this organization (<code>*</code>)
        </label>
      </div>
      <p className="muted choice-about">Public data events (marked “public data”) are sent only when named, even with every event chosen.</p>
      <div className="field event-search">
        <label htmlFor={searchId}>Search event types</label>
        <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoComplete="off" />
      </div>
      <p className="muted" role="status">
        {needle ? `${shown.length} of ${items.length} event types match.` : `${items.length} event types; ${[...selected].length} chosen.`}
      </p>
      <div className="event-families">
        {[...families].map(([family, members]) => (
          <FamilyGroup key={family} family={family} items={members} selected={selected} coveredByAll={everything} disabled={disabled} onChange={change} />
        ))}
      </div>
    </fieldset>
  );
}

/** The chosen types as the list and pages show them. */
export function describeTypes(types: readonly string[]): string {
  if (!types.length) return 'None';
  return types.map((type) => (type === everyEvent ? 'Every event (*)' : type)).join(', ');
}
