// How the portfolio pages write the service's numbers: betas and ratios to four places, returns,
// weights and volatilities as percentages to two. The tables and the charts use the same words.

export const fixed = (value: number, digits = 4) => value.toFixed(digits);

export const pct = (fraction: number, digits = 2) => `${(fraction * 100).toFixed(digits)}%`;

/** A stored result's manifest (GET /v1/artifacts/{artifact_id} `manifest`): what it was computed from. */
export interface Manifest {
  inputs: unknown;
  sources: { sourceKey: string; kind: string; subject: string; vintage: string | null; firstDate: string | null; lastDate: string | null }[];
  model: string | null;
  window: { from: string; to: string; days: number } | null;
  contentHash: string;
}

export const artifactPath = (id: string) => `/portfolio/artifacts/${id}`;

/** The artifacts route's downloads (GET /v1/artifacts/{artifact_id}/export): the service renders both. */
export const exportHref = (id: string, format: 'markdown' | 'json') => `/v1/artifacts/${encodeURIComponent(id)}/export?format=${format}`;
