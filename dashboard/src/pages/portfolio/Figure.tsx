// One figure of a portfolio run: its title, what it was computed from (the artifact's manifest:
// the price and factor files with their vintages and dates, the model, the window), then its
// table and chart.
import type { ReactNode } from 'react';
import type { Manifest } from './figures.ts';

const kinds: Record<string, string> = { market_prices: 'prices', factor_returns: 'factors', macro_series: 'series' };

function sourceText(s: Manifest['sources'][number]): string {
  const dates = s.firstDate && s.lastDate ? `, ${s.firstDate} to ${s.lastDate}` : '';
  return `${s.subject} ${kinds[s.kind] ?? s.kind} (${s.sourceKey}, vintage ${s.vintage ?? 'not stated'}${dates})`;
}

export function Sources({ manifest }: { manifest: Manifest }) {
  const window = manifest.window ? `; window ${manifest.window.from} to ${manifest.window.to} (${manifest.window.days} days)` : '';
  return (
    <span className="portfolio-sources">
      Sources: {manifest.sources.length ? manifest.sources.map(sourceText).join('; ') : 'no market file'}
      {manifest.model ? `. Model ${manifest.model}` : '.'}
      {window}.
    </span>
  );
}

export function Figure({ title, manifest, children }: { title: string; manifest: Manifest; children: ReactNode }) {
  return (
    <figure className="portfolio-figure">
      <figcaption>
        <span className="portfolio-figure-title">{title}</span> <Sources manifest={manifest} />
      </figcaption>
      {children}
    </figure>
  );
}
