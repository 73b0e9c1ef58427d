// Numbers, money and times as the person's browser writes them.
const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export const formatNumber = (value: number) => number.format(value);

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

/** 20,000 → 20K: for tight spaces, with the full number in the accessible label beside it. */
export const formatCompact = (value: number) => compact.format(value);

export const formatMoney = (cents: number, currency = 'USD') => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);

export const formatDateTime = (iso: string | null | undefined, never = 'Never') => (iso ? dateTime.format(new Date(iso)) : never);

export const formatTime = (iso: string) => time.format(new Date(iso));

/** `sandbox_grant` → `Sandbox grant`: the service's keys, readable. */
export const humanize = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');
