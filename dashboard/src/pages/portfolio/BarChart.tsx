// A small hand-drawn SVG bar chart of signed values (betas, contributions, returns by scenario):
// one bar per label from a zero line, negative values to the left, and where a bar has an
// interval (a beta's 95% confidence interval) a whisker across it from its low to its high end.
// The figures themselves are in the table beside it; the chart shows their sizes. Drawn with SVG
// attributes only (the CSP allows no inline styles).
export interface Bar {
  label: string;
  value: number;
  /** low and high ends of the value's interval */
  interval?: [number, number];
}

const width = 640;
const row = 24;
const labelWidth = 150;
const valueWidth = 90;
const cap = 5;

export function BarChart({ title, bars, format }: { title: string; bars: Bar[]; format: (value: number) => string }) {
  // the scale reaches every bar's end and every whisker's
  const lowest = Math.min(0, ...bars.flatMap((b) => [b.value, ...(b.interval ?? [])]));
  const highest = Math.max(0, ...bars.flatMap((b) => [b.value, ...(b.interval ?? [])]));
  const largest = Math.max(-lowest, highest, Number.MIN_VALUE);
  const signed = lowest < 0 && highest > 0;
  const negativeOnly = highest <= 0;
  const plot = width - labelWidth - valueWidth;
  const zero = signed ? labelWidth + plot / 2 : negativeOnly ? labelWidth + plot : labelWidth;
  const scale = (signed ? plot / 2 : plot) / largest;
  const at = (v: number) => zero + v * scale;
  const height = bars.length * row + 8;
  const spoken = (b: Bar) => `${b.label} ${format(b.value)}${b.interval ? ` (95% interval ${format(b.interval[0])} to ${format(b.interval[1])})` : ''}`;
  return (
    <svg className="portfolio-bars" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}: ${bars.map(spoken).join(', ')}`}>
      {bars.map((b, i) => {
        const length = Math.abs(b.value) * scale;
        const y = 4 + i * row;
        const middle = y + row / 2;
        return (
          <g key={b.label}>
            <text x={labelWidth - 8} y={middle + 4} textAnchor="end" className="portfolio-bar-label">
              {b.label}
            </text>
            <rect x={b.value < 0 ? zero - length : zero} y={y + 4} width={Math.max(length, 0.5)} height={row - 8} className={b.value < 0 ? 'portfolio-bar-negative' : 'portfolio-bar'} />
            {b.interval ? <Whisker from={at(b.interval[0])} to={at(b.interval[1])} y={middle} /> : null}
            <text x={width - valueWidth + 8} y={middle + 4} className="portfolio-bar-label">
              {format(b.value)}
            </text>
          </g>
        );
      })}
      <line x1={zero} x2={zero} y1={0} y2={height} className="portfolio-bar-axis" />
    </svg>
  );
}

/** An interval across a bar: a line from its low end to its high end, capped at both. */
function Whisker({ from, to, y }: { from: number; to: number; y: number }) {
  return (
    <g className="portfolio-bar-whisker">
      <line x1={from} x2={to} y1={y} y2={y} />
      <line x1={from} x2={from} y1={y - cap} y2={y + cap} />
      <line x1={to} x2={to} y1={y - cap} y2={y + cap} />
    </g>
  );
}
